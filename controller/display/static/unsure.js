"use strict";
// People playing: the camera's readings open for their seats (state.unsure, controller.people.witness), each with
// the tiles as taken and the ranked choices of its unsure tiles. A tap on a choice sends the seat's correction
// (POST /api/correct with the control token, asked once and kept in this browser); the seat's button does the
// same at the table (once confirms, twice takes the second choice, three times the third).
const Unsure = (() => {
  const WORDS = {
    zh: {unsure: "摄像头没把握", doubtful: "摄像头看不明白", token: "控制口令", wrong: "口令不对", refused: "未被接受",
      pick: "点对的那张牌，或按自己的按键：按一次确认，两次选第二个，三次选第三个",
      sights: {discard: "打出的牌", taken: "被取走的牌", row: "摆出的牌", quiet: "", correct: "更正"}},
    en: {unsure: "the camera is unsure", doubtful: "the camera cannot make sense of", token: "control token",
      wrong: "wrong token", refused: "not accepted",
      pick: "tap the right tile, or press your button: once confirms, twice takes the second, three times the third",
      sights: {discard: "a discard", taken: "a tile taken", row: "a row laid down", quiet: "", correct: "a correction"}},
  };
  let readings = [];

  function html(s) {
    readings = s.unsure || [];
    if (!readings.length) return "";
    const w = WORDS[MJ.lang];
    const one = u => {
      const choices = u.unsure.map(t => t.choices.map(([code, p]) =>
        `<button data-n="${u.n}" data-at="${t.at}" data-tile="${code}">${MJ.tile(code)} ${Math.round(p * 100)}%</button>`
      ).join(" ")).join("<br>");
      return `<div class="unsure${u.confirmed ? " confirmed" : ""}"><b>${MJ.word("seat")(u.seat)} · ` +
        `${u.doubtful ? w.doubtful : w.unsure}</b> ${w.sights[u.sight] ?? ""}` +
        `<span class="row">${u.tiles.map(c => MJ.tile(c)).join("")}</span>${choices}</div>`;
    };
    return readings.map(one).join("") + `<p class="pick">${w.pick}</p>`;
  }

  function correct(n, at, tile) {
    const w = WORDS[MJ.lang];
    const reading = readings.find(u => u.n === n);
    if (!reading) return;
    const tiles = reading.tiles.slice();
    tiles[at] = tile;
    let token = localStorage.getItem("mjtable-token");
    if (!token) {
      token = prompt(w.token);
      if (!token) return;
      localStorage.setItem("mjtable-token", token);
    }
    fetch("/api/correct", {method: "POST", headers: {Authorization: "Bearer " + token, "Content-Type": "application/json"},
      body: JSON.stringify({seat: reading.seat, tiles: tiles.join(""), sight: n})}).then(r => r.json()).then(answer => {
      if (!answer.error) return;
      if (answer.error === "wrong token") localStorage.removeItem("mjtable-token");
      alert(answer.error === "wrong token" ? w.wrong : MJ.lang === "en" ? answer.error : w.refused);
    });
  }

  /** Taps on the choices inside ``element`` send corrections (one listener: the panel is redrawn often). */
  function bind(element) {
    element.addEventListener("click", event => {
      const button = event.target.closest("button[data-n]");
      if (button) correct(+button.dataset.n, +button.dataset.at, button.dataset.tile);
    });
  }
  return {html, bind};
})();
