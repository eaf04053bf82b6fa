"""The dealer-light page: one HTML document, readable on a phone, pushed by server-sent events from ``/events``.
Tiles are drawn as images from ``/tiles/<tile>.png`` (the package's tile faces); the latest verdicts are listed
from the state's numbered log, so none is lost between two pushes."""

PAGE = """<!doctype html>
<html lang="zh"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mjtable</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;padding:8px;background:#0b3d2e;color:#f3f3f3}
header{display:flex;flex-wrap:wrap;gap:12px;align-items:baseline}
button{font-size:1em}
.seats{display:grid;grid-template-columns:repeat(auto-fit,minmax(260px,1fr));gap:8px;margin-top:8px}
.seat{background:#145a43;border-radius:8px;padding:6px}
.seat.dealer{outline:3px solid #ffd54f}
.tiles{line-height:0}
.tiles img{width:24px;height:31px;margin:1px;border-radius:3px;background:#fff}
.flowers img{width:18px;height:23px}
#verdicts{margin:8px 0;padding-left:1.5em;font-size:.9em}
.no{color:#ff8a80}
.fault{background:#b71c1c;padding:8px;border-radius:8px;margin-top:8px}
.win{background:#1a237e;padding:8px;border-radius:8px;margin-top:8px}
</style></head><body>
<header><strong id="title">mjtable</strong><span id="summary"></span>
<button id="lang" onclick="toggle()">English</button></header>
<div id="fault"></div><div class="seats" id="seats"></div><div id="win"></div>
<p id="last"></p><ul id="verdicts"></ul>
<script>
const WINDS={zh:{E:"东",S:"南",W:"西",N:"北"},en:{E:"East",S:"South",W:"West",N:"North"}};
const WORDS={zh:{hand:"局",round:"圈风",wall:"牌墙余",dealer:"庄",scores:"得分",seat:"座位",drawn:"荒庄",
 hu:"和",discards:"弃牌",melds:"副露",flowers:"花",waiting:"等待"},en:{hand:"hand",round:"round wind",wall:"wall left",
 dealer:"dealer",scores:"scores",seat:"seat",drawn:"drawn game",hu:"hu",discards:"discards",melds:"melds",
 flowers:"flowers",waiting:"waiting for"}};
let lang="zh",state={};
function tiles(list){return (list||[]).map(c=>`<img src="/tiles/${c}.png" alt="${c}" title="${c}">`).join("")}
function toggle(){lang=lang==="zh"?"en":"zh";document.getElementById("lang").textContent=lang==="zh"?"English":"中文";
 render()}
function render(){const w=WORDS[lang],s=state;if(s.hand===null||s.hand===undefined)return;
 document.getElementById("summary").textContent=`${w.hand} ${s.hand+1} · ${w.round} ${WINDS[lang][s.round_wind]}`+
  ` · ${w.wall} ${s.wall_remaining??"-"} · ${w.scores} ${s.scores.join(" / ")}`;
 const seats=(s.seats||[{},{},{},{}]).map((seat,i)=>`<div class="seat ${i===s.dealer?"dealer":""}">`+
  `<div>${w.seat} ${i} · ${WINDS[lang][s.seat_winds[i]]}${i===s.dealer?" · "+w.dealer:""}</div>`+
  `<div class="tiles" title="${w.discards}">${tiles(seat.discards)}</div>`+
  `<div>${w.melds}: ${(seat.melds||[]).join(" ")} ${w.flowers}: `+
  `<span class="tiles flowers">${tiles(seat.flowers)}</span></div></div>`);
 document.getElementById("seats").innerHTML=seats.join("");
 const f=s.fault;document.getElementById("fault").innerHTML=f?
  `<div class="fault">${f.code}: ${lang==="zh"?f.hint_zh:f.hint_en}</div>`:"";
 const win=s.win;let text="";
 if(win&&win.drawn)text=w.drawn;
 if(win&&!win.drawn)text=win.wins.map(x=>`${w.seat} ${x.seat} ${w.hu} ${x.score.total}: `+
  x.score.fans.map(f=>`${lang==="zh"?f.name_zh:f.name_en} ${f.points}`).join(", ")).join("<br>");
 document.getElementById("win").innerHTML=text?`<div class="win">${text}</div>`:"";
 const e=s.last_event,v=s.verdict;document.getElementById("last").textContent=(e?
  describe(e)+(v?(v.ok?" ✓":" ✗ "+v.reason):""):"")+(s.waiting?` · ${w.waiting}: ${s.waiting}`:"");
 document.getElementById("verdicts").innerHTML=(s.verdicts||[]).slice(-6).reverse().map(item).join("")}
function item(v){if(v.result)return `<li>${v.result.drawn?WORDS[lang].drawn:v.result.wins.map(x=>
  `${WORDS[lang].seat} ${x.seat} ${WORDS[lang].hu} ${x.score.total}`).join("; ")}</li>`;
 const text=describe(v.event)+(v.events?" · "+v.events.join(", "):"");
 return v.ok?`<li>${text} ✓</li>`:`<li class="no">${text} ✗ ${v.reason}</li>`}
const VERBS={zh:{draw:"摸牌",discard:"打出",flower:"补花",concealed_kong:"暗杠",added_kong:"加杠",chi:"吃",pung:"碰",
 kong:"杠",hu:"和",pass:"过",declare_void:"定缺",press:"按键",saw:"摄像头:"},
 en:{draw:"draws",discard:"discards",flower:"sets aside a flower",
 concealed_kong:"declares a concealed kong",added_kong:"adds to a kong",chi:"chows",pung:"pungs",kong:"kongs",
 hu:"declares hu",pass:"passes",declare_void:"declares void the suit of",press:"pressed",saw:"camera:"}};
function describe(e){const a=e.action;if(e.kind==="journal")return lang==="zh"?"记录":"journal";
 if(e.kind==="table")return `${lang==="zh"?"牌桌":"table"}: ${e.step}`;
 if(e.kind==="button")return `${WORDS[lang].seat} ${e.seat}: ${VERBS[lang].press} ${e.button}`;
 if(e.kind==="sight")return (e.seat>=0?`${WORDS[lang].seat} ${e.seat}: `:"")+`${VERBS[lang].saw} ${e.sight}`+
  (e.tiles?` ${e.tiles}`:"");
 if(!a||!(a.kind in VERBS.en))return JSON.stringify(e);
 return `${WORDS[lang].seat} ${a.seat} ${VERBS[lang][a.kind]}`+(a.tile?` ${a.tile}`:"")}
fetch("/api/state").then(r=>r.json()).then(s=>{state=s;render()});
new EventSource("/events").onmessage=m=>{state=JSON.parse(m.data);render()};
</script></body></html>
"""
