"""The parlor page of ``mjtable fleet``: one card per table, refreshed from ``/api/tables`` every two seconds, and
a line when the broker is away (``/api/broker``). Self-contained (no files to install); every text from a table goes
in with ``textContent``, never as HTML, and a card that cannot be drawn says so without taking the others down."""

FLEET_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mjtable fleet</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;padding:8px;background:#0b3d2e;color:#f3f3f3}
#tables{display:grid;grid-template-columns:repeat(auto-fill,minmax(240px,1fr));gap:8px}
.card{background:#145a43;border-radius:8px;padding:8px}
.card.offline{background:#444;color:#bbb}
.card h2{margin:0 0 4px 0;font-size:1.1em}
.badge{float:right;font-size:.8em;padding:2px 6px;border-radius:4px;background:#2e7d32}
.offline .badge{background:#757575}
.fault{background:#b71c1c;padding:4px;border-radius:4px;margin-top:4px}
</style></head><body>
<h1>mjtable fleet</h1><p id="count"></p><div id="tables"></div>
<script>
const WIND={E:"东",S:"南",W:"西",N:"北"};
function line(parent,text,cls){const d=document.createElement("div");d.textContent=text;if(cls)d.className=cls;
 parent.appendChild(d);return d}
function card(id,t){const c=document.createElement("div"),s=t.state||{};
 c.className="card"+(t.availability==="online"?"":" offline");c.dataset.table=id;
 const h=document.createElement("h2");h.textContent=id;const b=document.createElement("span");b.className="badge";
 b.textContent=t.availability;h.appendChild(b);c.appendChild(h);
 if(t.problem)line(c,t.problem,"fault");
 if(s.hand===null||s.hand===undefined){line(c,"no hand yet");return c}
 line(c,`${s.rules} · hand ${s.hand+1} · round ${WIND[s.round_wind]||s.round_wind} · dealer seat ${s.dealer}`);
 line(c,`wall left ${s.wall_remaining??"-"} · ${s.phase||""}`);
 line(c,`scores ${(s.scores||[]).join(" / ")}`);
 if(s.win)line(c,s.win.drawn?"drawn game 荒庄":s.win.wins.map(w=>`seat ${w.seat} hu ${w.score.total}`).join(", "));
 if(s.fault)line(c,`${s.fault.code}: ${s.fault.hint_en}`,"fault");
 return c}
function safe(id,t){try{return card(id,t)}catch(e){const c=document.createElement("div");c.className="card";
 c.dataset.table=id;line(c,id);line(c,"state not shown: "+e,"fault");return c}}
async function refresh(){try{const r=await fetch("/api/tables"),tables=await r.json(),ids=Object.keys(tables);
 const broker=await (await fetch("/api/broker")).json();
 const online=ids.filter(i=>tables[i].availability==="online").length;
 document.getElementById("count").textContent=`${ids.length} tables, ${online} online`+
  (broker.connected?"":` · broker ${broker.url}: ${broker.error}, trying again`);
 const box=document.getElementById("tables");box.replaceChildren(...ids.map(i=>safe(i,tables[i])))}
 catch(e){document.getElementById("count").textContent="fleet view unreachable: "+e}}
refresh();setInterval(refresh,2000);
</script></body></html>
"""
