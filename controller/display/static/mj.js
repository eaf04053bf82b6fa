"use strict";
// Shared by the display's pages (/, /overlay, /history): the words of both languages, tiles as images, how
// events and verdicts read, and the state stream. One language at a time: every visible string comes from
// WORDS or is translated here; an English text from the engine is never shown in Chinese, nor CJK in English.
// Even the switch names the other language in the current one (英文 / Chinese).
const MJ = (() => {
  const query = new URLSearchParams(location.search);
  const WORDS = {
    zh: {
      E: "东", S: "南", W: "西", N: "北", round: w => `${w}风`, hand: n => `第 ${n} 局`, left: n => `余 ${n} 张`,
      seat: n => `座位 ${n}`, dealer: "庄", streak: n => `连${n}`, opened: (w, n) => `${w}家墙第${n}墩开门`,
      dice: "骰子", wins: "和牌", selfDrawn: "自摸", onDiscard: "点和", total: n => `共 ${n} 番`,
      fan: (points, count) => `${points}番` + (count > 1 ? ` ×${count}` : ""), drawn: "荒庄",
      voided: "本局作废", thisHand: "本局", totals: "总分", fault: "故障：牌桌已停", history: "对局记录",
      plot: "累计得分", none: "尚无已结束的牌局", waiting: "等待", lang: "英文", flat: "平放", upright: "立式",
      back: "牌桌", column: "局", winner: "和牌者", fans: "番种", payments: "得失", judged: "不合规则",
      noHand: "等待开局", unread: "摄像头未认出这张牌", journal: "记录落后于牌桌",
      roundHand: (w, n) => `${w}${n}局`, honba: n => `${n}本场`, riichi: "立直", dora: "宝牌指示",
      indicator: "翻牌", wild: "赖子", bao: "宝", baoHidden: "宝牌扣着", baoReplaced: "换下的宝",
      standings: "终局名次", place: "名次", points: "点数", result: "成绩",
    },
    en: {
      E: "East", S: "South", W: "West", N: "North", round: w => `${w} round`, hand: n => `hand ${n}`,
      left: n => `${n} left`, seat: n => `seat ${n}`, dealer: "Dealer", streak: n => `+${n}`,
      opened: (w, n) => `wall opened at ${w}, stack ${n}`, dice: "dice", wins: "wins", selfDrawn: "self-drawn",
      onDiscard: "on a discard", total: n => `total ${n}`, fan: (points, count) => `${points}` +
      (count > 1 ? ` ×${count}` : ""), drawn: "drawn hand", voided: "hand voided", thisHand: "this hand",
      totals: "total", fault: "Fault: the table stopped", history: "Hands of the match", plot: "Running score",
      none: "no hand finished yet", waiting: "waiting for", lang: "Chinese", flat: "flat", upright: "upright",
      back: "table", column: "hand", winner: "winner", fans: "fans", payments: "paid / got", judged: "not allowed",
      noHand: "waiting for the first hand", unread: "the camera could not read a tile",
      journal: "the journal is behind the table",
      roundHand: (w, n) => `${w} ${n}`, honba: n => `${n} honba`, riichi: "riichi", dora: "dora",
      indicator: "indicator", wild: "wild", bao: "bao", baoHidden: "bao face down", baoReplaced: "bao replaced",
      standings: "Final standings", place: "place", points: "points", result: "result",
    },
  };
  const VERBS = {
    zh: {draw: "摸牌", discard: "打出", flower: "补花", concealed_kong: "暗杠", added_kong: "加杠", chi: "吃",
      pung: "碰", kong: "杠", hu: "和", pass: "过", declare_void: "定缺", show: "亮牌"},
    en: {draw: "draws", discard: "discards", flower: "sets aside a flower", concealed_kong: "concealed kong",
      added_kong: "adds to a kong", chi: "chows", pung: "pungs", kong: "kongs", hu: "declares hu", pass: "passes",
      declare_void: "declares void", show: "shows the hand"},
  };
  const STEPS = {
    zh: {hatch_open: "开盖", intake: "进牌", shuffled: "洗牌完毕", walls_built: "码牌完毕", lifted: "升牌",
      lowered: "降台", "next:shuffled": "下一副洗好", "next:walls_built": "下一副码好"},
    en: {hatch_open: "hatch open", intake: "tiles taken in", shuffled: "shuffled", walls_built: "walls built",
      lifted: "walls lifted", lowered: "lowered", "next:shuffled": "next set shuffled",
      "next:walls_built": "next walls built"},
  };
  const BUTTONS = {zh: {claim: "叫牌键", hu: "和牌键", lift: "升降键", dice: "骰子键", void: "作废"},
    en: {claim: "claim", hu: "hu", lift: "lift", dice: "dice key", void: "void"}};
  // The referee's words after an action, in Chinese; "seat N <claim>" is read apart.
  const EVENTS_ZH = {"void declared": "定缺", "play starts": "开始行牌", discarded: "", "flower set aside": "补花",
    "replacement drawn": "补牌", "kong may be robbed": "可抢杠", kong: "杠", "answer recorded": "",
    "nobody robbed": "无人抢杠", drew: "", "all passed": "都过", "hand shown": "亮牌", "play goes on": "继续行牌",
    "drawn game": "荒庄", "hand voided": "本局作废"};
  // The commonest refusals in Chinese; any other shows as "not allowed" (the English reason in its tooltip).
  const REASONS_ZH = [
    [/holds no (\w+)/, m => `手里没有 ${m[1]}`], [/does not hold \w+ (\w+)/, m => `手里的 ${m[1]} 不够`],
    [/declared a win that is not one/, () => "诈和"], [/copies of (\w+) seen/, m => `${m[1]} 已超过四张`],
    [/nothing is on offer/, () => "没有可吃碰的牌"], [/chi only from/, () => "只能吃上家"],
    [/hand is over/, () => "本局已结束"], [/called no meld/, () => "未叫牌，按键无效"],
    [/live wall is exhausted/, () => "牌墙已尽"], [/cannot answer|: it is /, () => "未轮到"],
  ];
  const TERMS_EN = {"上家": "left player", "下家": "right player", "对家": "opposite player"};
  let lang = query.get("lang") || localStorage.getItem("mjtable.lang") || "zh";
  if (!(lang in WORDS)) lang = "zh";

  const esc = text => String(text).replace(/[&<>"]/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})[c]);
  /** An engine text in English with any CJK dropped (a known term in English, others with their brackets). */
  const english = text => String(text).replace(/上家|下家|对家/g, t => TERMS_EN[t])
    .replace(/\s*[(（][^()（）]*[\u3400-\u9fff][^()（）]*[)）]/g, "").replace(/[\u3400-\u9fff]+/g, "");
  const word = key => WORDS[lang][key];
  const wind = letter => WORDS[lang][letter] || "";
  let ranks = 9;
  /** A tile's image: rank 0 is a red five (riichi's 0m 0p 0s) where suits have nine ranks, 十万's ten (10m). */
  const image = code => (ranks === 10 && code[0] === "0" ? "10" + code[1] : code);
  const tile = (code, cls = "") => `<img class="t ${cls}" src="/tiles/${image(code)}.png" alt="${code}">`;
  /** The codes of a compact string in its order: "26p1z" → 2p 6p 1z. */
  const tiles = text => [...String(text).matchAll(/(\d+)([mpsz])/g)].flatMap(([, digits, suit]) => [...digits].map(d => d + suit));
  const back = () => '<span class="t back"></span>';
  /** A meld as it lies on the table: the claimed tile sideways, a concealed kong with its ends face down
   * (all four face down where ``hideConcealed``: a stream never shows a face the players did not show). */
  function meld(m, hideConcealed = false) {
    const faces = m.tiles.map((code, i) => {
      if (m.hidden && (hideConcealed || i === 0 || i === 3)) return back();
      return i === m.side ? `<span class="sd">${tile(code)}</span>` : tile(code);
    });
    return `<span class="meld">${faces.join("")}</span>`;
  }
  const seat = (state, i) => `${wind((state.seat_winds || "ESWN")[i])} · ${word("seat")(i)}`;
  const number = n => (n > 0 ? "+" : "") + n;
  function reason(text) {
    if (lang === "en") return english(text);
    for (const [pattern, say] of REASONS_ZH) {
      const found = String(text).match(pattern);
      if (found) return say(found);
    }
    return word("judged");
  }
  function refereeEvent(text) {
    const claim = text.match(/^seat (\d) (hu|pung|chi|chow|kong)$/);
    if (lang === "en") return english(text);
    if (claim) return `${word("seat")(claim[1])} ${VERBS.zh[claim[2] === "chow" ? "chi" : claim[2]]}`;
    const fine = text.match(/^seat (\d) false win/);
    if (fine) return `${word("seat")(fine[1])} 诈和，罚分`;
    return EVENTS_ZH[text] ?? "";
  }
  /** What happened, from the event's fields (never from an English text). */
  function describe(e) {
    if (!e) return "";
    const a = e.action;
    if (e.kind === "journal") return word("journal");
    if (e.kind === "table") return (STEPS[lang][e.step] || (lang === "en" ? e.step : "牌桌动作"));
    if (e.kind === "dice") return `${word("dice")} ${(e.dice || []).join(" + ")}`;
    if (e.kind === "fault") return word("fault");
    if (e.kind === "button") return `${word("seat")(e.seat)} · ${BUTTONS[lang][e.button] || ""}`;
    if (e.kind === "sight") return (e.seat >= 0 ? word("seat")(e.seat) + " · " : "") +
      (lang === "zh" ? "摄像头" : "camera") + (e.tiles ? " " + e.tiles : "");
    if (!a || !(a.kind in VERBS.en)) return "";
    return `${word("seat")(a.seat)} ${VERBS[lang][a.kind]}` + (a.tile ? ` ${a.tile}` : "");
  }
  /** One verdict of the state's numbered log as a line of text (ok, refused with why, or a hand's result). */
  function verdict(v) {
    if (v.result) return v.result.drawn ? word("drawn") : v.result.wins.map(x =>
      `${word("seat")(x.seat)} ${word("wins")} ${x.score.total ?? ""}`).join("; ");
    const follow = (v.events || []).map(refereeEvent).filter(Boolean).join(" · ");
    const what = describe(v.event) || (v.event && v.event.kind === "sight" ? word("unread") : "");
    return v.ok ? `${what}${follow ? " · " + follow : ""} ✓` : `${what} ✗ ${reason(v.reason || "")}`;
  }
  function setLang(next) {
    lang = next;
    localStorage.setItem("mjtable.lang", lang);
    document.documentElement.lang = lang;
  }
  /** Calls ``render(state)`` with the state now and on every change the server pushes. */
  function follow(render) {
    document.documentElement.lang = lang;
    fetch("/api/state").then(r => r.json()).then(render);
    new EventSource("/events").onmessage = m => render(JSON.parse(m.data));
  }
  /** A match's final standings (riichi, ``Match.final_standings``) as a table's rows: place, seat, points and the
   * result with uma and oka; "" for none. */
  function standings(places) {
    if (!places) return "";
    const rows = places.map((p, k) => `<tr><td>${k + 1}</td><td>${word("seat")(p.player)}</td><td>${p.score}</td>` +
      `<td class="${p.result > 0 ? "up" : p.result < 0 ? "down" : ""}">${number(p.result)}</td></tr>`).join("");
    return `<caption>${word("standings")}</caption><tr><th>${word("place")}</th><th></th>` +
      `<th>${word("points")}</th><th>${word("result")}</th></tr>${rows}`;
  }
  return {query, esc, english, word, wind, tile, tiles, standings, back, meld, seat, number, reason, describe, verdict, follow,
    setLang, setRanks: n => { ranks = n === 10 ? 10 : 9; }, get lang() { return lang; }};
})();
