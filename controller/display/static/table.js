"use strict";
// The live table (/) and its read-only twin for a stream (/overlay, body.overlay): the four seats round a square,
// each seat's river in rows of six in front of it and its melds and flowers at its right; the labels (wind,
// dealer, score) and the hand's facts in the centre. Beside the table: a win with the winner's hand and what each
// seat paid, a drawn hand's settlement and the latest verdicts. A fault covers the table with the technician's
// hint; people playing, the camera's unsure readings wait there for their seats (unsure.js). The overlay shows no
// panel, no winning hand and no face of a concealed kong. ``?seat=N`` turns the table so that seat N sits at the bottom.
(() => {
  const overlay = document.body.classList.contains("overlay");
  const $ = id => document.getElementById(id);
  const DICE = "⚀⚁⚂⚃⚄⚅";
  const EMPTY = {discards: [], melds: [], flowers: []};
  let state = {};
  // ?seat=N (a player's phone): the table as seat N sees it, N at the bottom and play going round from there.
  const mine = /^[0-3]$/.test(MJ.query.get("seat") || "") ? +MJ.query.get("seat") : 0;
  let flat = MJ.query.get("flat") === "1" || (MJ.query.get("flat") === null && localStorage.getItem("mjtable.flat") === "1");

  function zone(s, seat, i) {
    const last = s.last_event && s.last_event.action;
    const newest = last && last.kind === "discard" && last.seat === i ? seat.discards.length - 1 : -1;
    const river = seat.discards.map((code, k) => MJ.tile(code, (k === newest ? "last" : "") + (k === seat.sideways ? " ri" : ""))).join("");
    const flowers = seat.flowers.length ? `<div class="flowers">${seat.flowers.map(c => MJ.tile(c)).join("")}</div>` : "";
    return `<div class="river${seat.discards.length > 24 ? " long" : ""}">${river}</div>` +
      `<div class="melds">${flowers}${seat.melds.map(m => MJ.meld(m, overlay)).join("")}</div>`;
  }

  /** A match that keeps points (riichi, state.board): the seat's points now and its last hand's change. */
  function points(s, i) {
    const change = (s.last_change || [])[i];
    const last = change ? `<small class="chg ${change > 0 ? "up" : "down"}">${MJ.number(change)}</small>` : "";
    return `<br><b class="pts">${s.board.points[i]}</b>${last}`;
  }

  function label(s, i) {
    const dealer = i === s.dealer;
    const streak = dealer && s.consecutive_dealer > 1 && !s.board ? `<br>${MJ.word("streak")(s.consecutive_dealer - 1)}` : "";
    const ready = s.board && ((s.table || {}).declared_ready || []).includes(i) ? `<span class="rc">${MJ.word("riichi")}</span>` : "";
    const badge = (dealer ? `<span class="dl">${MJ.word("dealer")}</span>` : "") + ready;
    const score = s.board ? points(s, i) : `<br><b>${MJ.number(s.scores[i])}</b>`;
    return `<span class="id"><b class="wd">${MJ.wind(s.seat_winds[i])}</b>${badge}</span><span class="who">${MJ.word("seat")(i)}${streak}${score}</span>`;
  }

  /** Riichi's round (东1局 · 1本场), the sticks on the table and the dora indicators face up. */
  function board(s) {
    const table = s.table || {}, b = s.board;
    const round = b.number ? MJ.word("roundHand")(MJ.wind(s.round_wind), b.number) : MJ.word("round")(MJ.wind(s.round_wind));
    const sticks = b.stake ? Math.round((table.on_table || 0) / b.stake) : 0;
    const lines = [`<div class="rd">${round}</div>`, `<div class="sticks" title="${table.on_table || 0}">` +
      `<span class="hb">${MJ.word("honba")(table.honba || 0)}</span><span class="stick"></span>×${sticks}</div>`];
    const dora = MJ.tiles(table.bonus_indicators || "");
    if (dora.length) lines.push(`<div class="dora"><span>${MJ.word("dora")}</span>${dora.map(c => MJ.tile(c)).join("")}</div>`);
    return lines;
  }

  /** What the wall shows (wild rulesets): the indicator turned up and the wildcards it makes, or Harbin's 宝 lying
   *  face down and the 宝 replaced before it (换宝). */
  function wall(s) {
    const table = s.table || {}, lines = [];
    if (table.wildcard_indicator) {
      lines.push(`<div class="wild"><span>${MJ.word("indicator")}</span>${MJ.tile(table.wildcard_indicator)}` +
        `<span>${MJ.word("wild")}</span>${MJ.tiles(table.wildcards || "").map(c => MJ.tile(c)).join("")}</div>`);
    }
    if (table.bao_hidden) {
      const replaced = MJ.tiles(table.bao_replaced || "");
      lines.push(`<div class="bao"><span class="back">${MJ.word("baoHidden")}</span>` + (replaced.length ?
        `<span>${MJ.word("baoReplaced")}</span>${replaced.map(c => MJ.tile(c)).join("")}` : "") + "</div>");
    }
    return lines;
  }

  function info(s) {
    const lines = s.board ? board(s) : [`<div>${MJ.word("round")(MJ.wind(s.round_wind))} ${MJ.word("hand")(s.hand + 1)}</div>`];
    lines.push(...wall(s));
    if (s.wall_remaining != null) lines.push(`<div class="left">${MJ.word("left")(s.wall_remaining)}</div>`);
    if (s.dice && s.dice.length) lines.push(`<div class="dice">${s.dice.map(d => DICE[d - 1]).join("")}</div>`);
    const opened = s.wall_break;
    if (opened) lines.push(`<div class="br">${MJ.word("opened")(MJ.wind(s.seat_winds[opened.seat]), opened.stack)}</div>`);
    return lines.join("");
  }

  /** A winner's hand laid down: melds, the standing tiles, the winning tile set apart. */
  function shown(w) {
    if (!w.tiles) return MJ.esc(w.hand);
    const standing = `<span class="standing">${w.tiles.map(c => MJ.tile(c)).join("")}</span>`;
    return w.melds.map(m => MJ.meld(m)).join("") + standing + (w.win_tile ? `<span class="wt">${MJ.tile(w.win_tile)}</span>` : "");
  }

  function result(s) {
    const win = s.win;
    if (!win) return "";
    const zh = MJ.lang === "zh";
    let head = "";
    if (win.voided) head = MJ.word("voided");
    else if (win.drawn) head = MJ.word("drawn") + (win.settled ? ` · ${win.settled[zh ? 0 : 1]}` : "");
    const wins = win.wins.map(w => {
      const how = w.self_drawn ? MJ.word("selfDrawn") : MJ.word("onDiscard");
      const fans = w.score.fans.map(f => `<li>${MJ.esc(zh ? f.name_zh : MJ.english(f.name_en))} ` +
        `<b>${MJ.word("fan")(f.points, f.count)}</b></li>`).join("");
      return `<div class="win"><h2>${MJ.seat(s, w.seat)} ${MJ.word("wins")} · ${how} ` +
        `<span class="tot">${MJ.word("total")(w.score.total)}</span></h2><div class="hand">${shown(w)}</div>` +
        `<ul class="fans">${fans}</ul></div>`;
    }).join("");
    const cells = (values, mark) => values.map(v => `<td class="${mark && v > 0 ? "up" : mark && v < 0 ? "down" : ""}">` +
      `${mark ? MJ.number(v) : v}</td>`).join("");
    const pay = `<table class="pay"><tr><th></th>${[0, 1, 2, 3].map(i => `<th>${MJ.seat(s, i)}</th>`).join("")}</tr>` +
      `<tr><th>${MJ.word("thisHand")}</th>${cells(win.payments, true)}</tr>` +
      `<tr><th>${MJ.word("totals")}</th>${cells(s.scores, false)}</tr></table>`;
    const end = s.board && s.board.final_standings ? `<table class="pay standings">${MJ.standings(s.board.final_standings)}</table>` : "";
    return (head ? `<h2>${head}</h2>` : "") + wins + pay + end;
  }

  function waiting(text) {
    if (MJ.lang === "en") return `${MJ.word("waiting")} ${MJ.english(text)}`;
    const claims = text.match(/claims on seat (\d)'s (\w+)/);
    if (claims) return `等待对${MJ.word("seat")(claims[1])}打出的 ${claims[2]} 叫牌`;
    const thrower = text.match(/^seat (\d)'s dice key/);
    if (thrower) return `等待${MJ.word("seat")(thrower[1])}按骰子键（第二次掷骰）`;
    const confirm = text.match(/^seat (\d)(?: and seat \d)* to confirm or correct/);
    if (confirm) return `等待${MJ.word("seat")(confirm[1])}确认所摊的牌，叫牌时限过后结算`;
    return /^the 宝 at wall place/.test(text) ? "等待翻开宝牌" : MJ.word("waiting");
  }

  function panel(s) {
    $("lang").textContent = MJ.word("lang");
    $("flat").textContent = MJ.word(flat ? "upright" : "flat");
    $("historylink").textContent = MJ.word("history");
    const notes = [];
    if (s.journal) notes.push(`<p class="warn">${MJ.esc(MJ.lang === "en" ? MJ.english(s.journal) : MJ.word("journal"))}</p>`);
    $("unsure").innerHTML = Unsure.html(s);
    $("result").innerHTML = notes.join("") + result(s);
    const items = (s.verdicts || []).slice(-6).reverse().map(v => `<li class="${v.ok === false ? "no" : ""}">${MJ.esc(MJ.verdict(v))}</li>`);
    if (s.waiting) items.unshift(`<li>${MJ.esc(waiting(s.waiting))}</li>`);
    $("log").innerHTML = items.join("");
  }

  function render(s) {
    state = s;
    MJ.setRanks(s.ranks);
    document.body.classList.toggle("flat", flat);
    if (!overlay) panel(s);
    if (s.hand === null || s.hand === undefined) {
      $("info").textContent = MJ.word("noHand");
      return;
    }
    const seats = s.seats || [EMPTY, EMPTY, EMPTY, EMPTY];
    document.querySelectorAll(".zone").forEach(el => {
      const i = (+el.dataset.seat + mine) % 4;
      el.innerHTML = zone(s, seats[i], i);
    });
    document.querySelectorAll(".lab").forEach((el, place) => {
      const i = (place + mine) % 4;
      el.innerHTML = label(s, i);
      el.classList.toggle("turn", s.turn === i && s.phase !== "over");
    });
    $("info").innerHTML = info(s);
    $("info").classList.toggle("riichi", !!s.board);
    const fault = $("fault");
    if (fault) {
      fault.hidden = !s.fault;
      if (s.fault) {
        fault.innerHTML = `<b>${MJ.word("fault")}</b><p>${MJ.esc(MJ.lang === "zh" ? s.fault.hint_zh : s.fault.hint_en)}</p>`;
        fault.title = s.fault.code;
      }
    }
  }

  if (!overlay) {
    Unsure.bind($("unsure"));
    $("lang").onclick = () => { MJ.setLang(MJ.lang === "zh" ? "en" : "zh"); render(state); };
    $("flat").onclick = () => { flat = !flat; localStorage.setItem("mjtable.flat", flat ? "1" : "0"); render(state); };
  }
  MJ.follow(render);
})();
