/// The page's script: reads the trace from the `<script id="trace">` element, lays out and
/// draws the graph, the timeline and the panels, and follows the server in live mode. Kept
/// as plain, commented JavaScript with no library; `DevToolsPageTests` and the browser
/// checks in `.ci/devtools` test it.
enum PageScript {
    static let source = #"""
        "use strict";
        (function () {
          // What the page was refused or loaded, for the browser checks: it loads nothing.
          let blocked = 0;
          document.addEventListener("securitypolicyviolation", () => { document.body.dataset.blocked = String(++blocked); });
          const data = JSON.parse(document.getElementById("trace").textContent);
          // Layout: nodes per column shown before the rest collapse into one group box.
          const GROUP_LIMIT = 40;
          const NODE_W = 190, NODE_H = 46, COLUMN_GAP = 90, ROW_GAP = 12, MARGIN = 20;

          const graph = document.getElementById("graph");
          const svgNS = graph.namespaceURI;  // SVG's, from the page's own <svg>
          const viewport = document.getElementById("viewport");
          const edgeLayer = document.getElementById("edges");
          const nodeLayer = document.getElementById("nodes");
          const search = document.getElementById("search");
          const scrubber = document.getElementById("scrubber");
          const timeline = document.getElementById("timeline");

          let byId, reads, readBy, column;
          let expanded = new Set();          // columns whose group is open
          let elements = new Map();          // node id -> its <g>, for drawn nodes
          let groupOf = new Map();           // node id -> its column's group <g>, for collapsed nodes
          let highlighted = [];
          let selectedNode = null;
          let current = 0;                   // the step shown, 1-based; 0 before the first
          let view = { x: 0, y: 0, scale: 1 };

          function svg(tag, attributes, parent) {
            const element = document.createElementNS(svgNS, tag);
            for (const key in attributes) element.setAttribute(key, attributes[key]);
            if (parent) parent.appendChild(element);
            return element;
          }
          function html(tag, text, className) {
            const element = document.createElement(tag);
            if (text !== undefined && text !== null) element.textContent = text;
            if (className) element.className = className;
            return element;
          }
          function label(node) { return node.name === null ? `${node.kind} #${node.id}` : node.name; }
          function cut(text, length) { return text.length > length ? text.slice(0, length - 1) + "\u2026" : text; }

          // What reads what, and each node's column: its height where the engine gives one to
          // every node, else its longest path from a node nothing feeds (a cycle's nodes go
          // after the rest).
          function index() {
            byId = new Map(); reads = new Map(); readBy = new Map(); column = new Map();
            for (const node of data.nodes) { byId.set(node.id, node); reads.set(node.id, []); readBy.set(node.id, []); }
            for (const [from, to] of data.edges) {
              if (!byId.has(from) || !byId.has(to)) continue;
              reads.get(to).push(from); readBy.get(from).push(to);
            }
            const heights = data.nodes.map(node => Number(node.details.height));
            if (data.nodes.length > 0 && heights.every(Number.isInteger)) {
              data.nodes.forEach((node, position) => column.set(node.id, heights[position]));
              return;
            }
            const waiting = new Map(), queue = [];
            for (const node of data.nodes) {
              waiting.set(node.id, reads.get(node.id).length);
              if (reads.get(node.id).length === 0) { queue.push(node.id); column.set(node.id, 0); }
            }
            for (let head = 0; head < queue.length; head++) {
              const id = queue[head];
              for (const reader of readBy.get(id)) {
                column.set(reader, Math.max(column.get(reader) || 0, column.get(id) + 1));
                waiting.set(reader, waiting.get(reader) - 1);
                if (waiting.get(reader) === 0) queue.push(reader);
              }
            }
            let deepest = 0;
            for (const value of column.values()) deepest = Math.max(deepest, value);
            for (const node of data.nodes) if (!column.has(node.id) || waiting.get(node.id) > 0) column.set(node.id, deepest + 1);
          }

          // Draws the graph: one column per height, a column's first nodes and, past
          // GROUP_LIMIT, one group box that opens on a click or a search.
          function draw() {
            edgeLayer.replaceChildren(); nodeLayer.replaceChildren();
            elements = new Map(); groupOf = new Map();
            const columns = new Map();
            for (const node of data.nodes) {
              const key = column.get(node.id);
              if (!columns.has(key)) columns.set(key, []);
              columns.get(key).push(node);
            }
            const keys = Array.from(columns.keys()).sort((a, b) => a - b);
            const position = new Map();
            keys.forEach((key, place) => {
              const members = columns.get(key);
              const open = expanded.has(key) || members.length <= GROUP_LIMIT;
              const shown = open ? members : members.slice(0, GROUP_LIMIT - 1);
              const x = MARGIN + place * (NODE_W + COLUMN_GAP);
              shown.forEach((node, row) => {
                const y = MARGIN + row * (NODE_H + ROW_GAP);
                position.set(node.id, { x, y });
                elements.set(node.id, drawNode(node, x, y));
              });
              if (!open) {
                const y = MARGIN + shown.length * (NODE_H + ROW_GAP);
                const group = svg("g", { class: "group", transform: `translate(${x},${y})`, tabindex: "0", "data-column": key });
                svg("rect", { width: NODE_W, height: NODE_H, rx: 8 }, group);
                const text = svg("text", { x: 10, y: 28 }, group);
                text.textContent = `+${members.length - shown.length} more (open)`;
                group.addEventListener("click", () => { expanded.add(key); draw(); showStep(current); });
                nodeLayer.appendChild(group);
                for (const node of members.slice(shown.length)) { groupOf.set(node.id, group); position.set(node.id, { x, y }); }
              }
            });
            const drawn = new Set();
            for (const [from, to, edgeLabel] of data.edges) {
              const start = position.get(from), end = position.get(to);
              if (!start || !end) continue;
              const key = `${start.x},${start.y},${end.x},${end.y}`;
              if (drawn.has(key)) continue;
              drawn.add(key);
              const x1 = start.x + NODE_W, y1 = start.y + NODE_H / 2, x2 = end.x, y2 = end.y + NODE_H / 2;
              const bend = Math.max(40, Math.abs(x2 - x1) / 2);
              const path = svg("path", {
                class: "edge", "data-from": from, "data-to": to,
                d: `M${x1},${y1} C${x1 + bend},${y1} ${x2 - bend},${y2} ${x2},${y2}`
              }, edgeLayer);
              if (edgeLabel !== null) svg("title", {}, path).textContent = edgeLabel;
            }
            graph.dataset.drawnNodes = String(elements.size);
            graph.dataset.drawnEdges = String(edgeLayer.childElementCount);
            applyView();
          }

          function drawNode(node, x, y) {
            const group = svg("g", { class: "node " + role(node), transform: `translate(${x},${y})`, tabindex: "0", "data-id": node.id });
            svg("rect", { width: NODE_W, height: NODE_H, rx: 8 }, group);
            const kind = svg("text", { class: "kind", x: 10, y: 16 }, group);
            kind.textContent = cut(node.kind, 28);
            svg("text", { class: "label", x: 10, y: 36 }, group);
            svg("title", {}, group);
            showValue(group, node, node.value);
            group.addEventListener("click", () => selectNode(node.id));
            group.addEventListener("keydown", event => { if (event.key === "Enter") selectNode(node.id); });
            nodeLayer.appendChild(group);
            return group;
          }

          // A node's second line: its name (or number) and its value at the step shown.
          function showValue(group, node, value) {
            const name = node.name === null ? `#${node.id}` : node.name;
            const text = value === null || value === undefined ? name : `${name} = ${value}`;
            group.querySelector("text.label").textContent = cut(text, 30);
            group.querySelector("title").textContent = `${node.kind} ${text}`;
          }

          // Every node's value after step `step` (0: before the first): the trace's initial
          // values, then each step's, in order.
          function valuesAfter(step) {
            const values = new Map(data.initial);
            for (let index = 0; index < step; index++) for (const [id, value] of data.steps[index].v) values.set(id, value);
            return values;
          }

          // Where a node stands: an input (nothing feeds it), an observed node, or derived.
          function role(node) {
            if (["observers", "sensors", "subscribers", "connected"].some(key => Number(node.details[key]) > 0)) return "observed";
            return reads.get(node.id).length === 0 ? "input" : "derived";
          }

          function selectNode(id) {
            if (selectedNode !== null && elements.has(selectedNode)) elements.get(selectedNode).classList.remove("selected");
            selectedNode = id;
            const node = byId.get(id);
            const panel = document.getElementById("node-panel");
            panel.replaceChildren();
            if (node === undefined) { panel.appendChild(html("p", "Choose a node to see what it reads and what reads it.", "hint")); return; }
            if (elements.has(id)) elements.get(id).classList.add("selected");
            panel.appendChild(html("h2", label(node)));
            const facts = html("dl");
            const fact = (term, value) => { facts.appendChild(html("dt", term)); facts.appendChild(html("dd", value)); };
            fact("kind", node.kind);
            const now = valuesAfter(current);
            fact(current === 0 ? "value before step 1" : `value after step ${current}`, now.has(id) ? now.get(id) : "(not recorded)");
            fact("value at the end", node.value === null ? "(none)" : node.value);
            const set = valueAt(id, current);
            if (set !== null) fact("last set", `at step ${set.step}`);
            for (const key of Object.keys(node.details).sort()) fact(key, node.details[key]);
            panel.appendChild(facts);
            for (const [title, list] of [["Reads", reads.get(id)], ["Read by", readBy.get(id)]]) {
              panel.appendChild(html("h3", `${title} (${list.length})`));
              const items = html("ul", null, "links");
              for (const other of list.slice(0, 200)) {
                const item = html("li");
                const button = html("button", label(byId.get(other)));
                button.addEventListener("click", () => { reveal(other); selectNode(other); });
                item.appendChild(button);
                items.appendChild(item);
              }
              if (list.length > 200) items.appendChild(html("li", `and ${list.length - 200} more`));
              panel.appendChild(items);
            }
          }

          // The latest value a step up to `step` gave the node, or null.
          function valueAt(id, step) {
            for (let index = step - 1; index >= 0; index--) {
              for (const [node, value] of data.steps[index].v) if (node === id) return { step: index + 1, value };
            }
            return null;
          }

          // Opens the group a node is collapsed in, so that it is drawn.
          function reveal(id) {
            if (elements.has(id)) return;
            expanded.add(column.get(id));
            draw(); showStep(current);
          }

          // Shows step `step` (1-based; 0 shows none): its changed and told nodes marked on
          // the graph, its input, counters, values and, for a store, its state's diff.
          function showStep(step) {
            for (const element of highlighted) element.classList.remove("changed", "told");
            highlighted = [];
            current = Math.max(0, Math.min(step, data.steps.length));
            document.body.dataset.step = String(current);
            scrubber.value = String(current);
            const values = valuesAfter(current);
            for (const [id, group] of elements) {
              const node = byId.get(id);
              showValue(group, node, values.has(id) ? values.get(id) : (current === data.steps.length ? node.value : null));
            }
            const panel = document.getElementById("step-panel");
            panel.replaceChildren();
            drawCursor();
            if (current === 0) {
              document.getElementById("step-label").textContent = `${data.steps.length} steps`;
              panel.appendChild(html("p", data.steps.length === 0 ? "No steps recorded." : "Choose a step on the timeline (\u2190 \u2192).", "hint"));
              return;
            }
            const entry = data.steps[current - 1];
            document.getElementById("step-label").textContent = `Step ${current} of ${data.steps.length}`;
            for (const [list, className] of [[entry.ch, "changed"], [entry.to, "told"]]) {
              for (const id of list) {
                const element = elements.get(id) || groupOf.get(id);
                if (element === undefined) continue;
                element.classList.add(className);
                highlighted.push(element);
              }
            }
            panel.appendChild(html("h2", `Step ${current}`));
            const facts = html("dl");
            const fact = (term, value) => { facts.appendChild(html("dt", term)); facts.appendChild(html("dd", value)); };
            fact("time", formatTime(entry.t));
            fact("channel", data.channels[entry.c]);
            fact("input", entry.i);
            fact("changed", `${entry.ch.length} nodes` + (entry.g > 0 ? ` (and ${entry.g} no longer in the graph)` : ""));
            fact("observers told", `${entry.to.length} nodes`);
            for (const key of Object.keys(entry.n).sort()) fact(key, (entry.n[key] > 0 ? "+" : "") + entry.n[key]);
            panel.appendChild(facts);
            if (entry.d.length > 0) {
              panel.appendChild(html("h3", "State diff"));
              const table = html("table", null, "diff");
              for (const [path, before, after] of entry.d) {
                const row = html("tr", null, "diff-row");
                row.appendChild(html("td", path === "" ? "(state)" : path, "path"));
                row.appendChild(html("td", before === null ? "(added)" : before, "old"));
                row.appendChild(html("td", after === null ? "(removed)" : after, "new"));
                table.appendChild(row);
              }
              panel.appendChild(table);
            }
            if (entry.v.length > 0) {
              panel.appendChild(html("h3", "Values"));
              const table = html("table", null, "values");
              for (const [id, value] of entry.v) {
                const row = html("tr", null, "value-row");
                row.appendChild(html("td", byId.has(id) ? label(byId.get(id)) : `#${id}`, "path"));
                row.appendChild(html("td", value, "new"));
                table.appendChild(row);
              }
              panel.appendChild(table);
            }
            if (selectedNode !== null) selectNode(selectedNode);
          }

          function formatTime(nanoseconds) {
            if (nanoseconds < 1e3) return `${nanoseconds} ns`;
            if (nanoseconds < 1e6) return `${(nanoseconds / 1e3).toFixed(1)} \u00b5s`;
            if (nanoseconds < 1e9) return `${(nanoseconds / 1e6).toFixed(1)} ms`;
            return `${(nanoseconds / 1e9).toFixed(3)} s`;
          }

          // The timeline: a lane per channel, a tick per input at its time (or at its place
          // when every input has the same time), one path per lane however many inputs.
          const LANE = 22, LANE_LEFT = 110, TIMELINE_W = 1200;
          function stepX(index) {
            const steps = data.steps, first = steps[0].t, last = steps[steps.length - 1].t;
            const span = TIMELINE_W - LANE_LEFT - 10;
            if (last > first) return LANE_LEFT + span * (steps[index].t - first) / (last - first);
            return LANE_LEFT + (steps.length === 1 ? 0 : span * index / (steps.length - 1));
          }
          function drawTimeline() {
            timeline.replaceChildren();
            const height = Math.max(1, data.channels.length) * LANE + 6;
            timeline.setAttribute("viewBox", `0 0 ${TIMELINE_W} ${height}`);
            timeline.setAttribute("height", String(height));
            const paths = data.channels.map(() => []);
            data.steps.forEach((step, index) => paths[step.c].push(`M${stepX(index).toFixed(1)},${step.c * LANE + 5}v12`));
            data.channels.forEach((channel, lane) => {
              const name = svg("text", { class: "lane", x: 4, y: lane * LANE + 15 }, timeline);
              name.textContent = cut(channel, 16);
              svg("path", { class: "ticks", d: paths[lane].join(""), "data-channel": channel }, timeline);
            });
            svg("line", { id: "cursor", y1: 0, y2: height, x1: -10, x2: -10 }, timeline);
            scrubber.max = String(data.steps.length);
            drawCursor();
          }
          function drawCursor() {
            const cursor = document.getElementById("cursor");
            if (!cursor) return;
            const x = current === 0 ? -10 : stepX(current - 1);
            cursor.setAttribute("x1", x); cursor.setAttribute("x2", x);
          }
          timeline.addEventListener("click", event => {
            if (data.steps.length === 0) return;
            const box = timeline.getBoundingClientRect();
            const x = (event.clientX - box.left) * TIMELINE_W / box.width;
            let best = 0;
            for (let index = 0; index < data.steps.length; index++) {
              if (Math.abs(stepX(index) - x) < Math.abs(stepX(best) - x)) best = index;
            }
            showStep(best + 1);
          });
          scrubber.addEventListener("input", () => showStep(Number(scrubber.value)));
          document.getElementById("previous").addEventListener("click", () => showStep(current - 1));
          document.getElementById("next").addEventListener("click", () => showStep(current + 1));

          // Search: nodes whose kind, name or value holds the text are marked; a group that
          // hides one opens; Enter brings the first into view.
          search.addEventListener("input", () => {
            const text = search.value.trim().toLowerCase();
            for (const element of nodeLayer.querySelectorAll(".match")) element.classList.remove("match");
            document.getElementById("matches").textContent = "";
            if (text === "") return;
            const found = data.nodes.filter(node => `${node.kind} ${node.name || ""} ${node.value || ""}`.toLowerCase().includes(text));
            let opened = false;
            for (const node of found.slice(0, 500)) if (!elements.has(node.id)) { expanded.add(column.get(node.id)); opened = true; }
            if (opened) { draw(); showStep(current); }
            for (const node of found) if (elements.has(node.id)) elements.get(node.id).classList.add("match");
            document.getElementById("matches").textContent = `${found.length} found`;
          });
          search.addEventListener("keydown", event => {
            if (event.key !== "Enter") return;
            const first = nodeLayer.querySelector(".match");
            if (first) { selectNode(Number(first.dataset.id)); centerOn(first); }
          });

          // Pan with a drag, zoom with the wheel or + and -, 0 to fit.
          function applyView() { viewport.setAttribute("transform", `translate(${view.x},${view.y}) scale(${view.scale})`); }
          function zoom(factor, cx, cy) {
            const scale = Math.max(0.05, Math.min(4, view.scale * factor));
            view.x = cx - (cx - view.x) * scale / view.scale;
            view.y = cy - (cy - view.y) * scale / view.scale;
            view.scale = scale; applyView();
          }
          function centerOn(element) {
            const box = element.getBBox(), frame = graph.getBoundingClientRect();
            const match = /translate\(([-\d.]+),([-\d.]+)\)/.exec(element.getAttribute("transform"));
            const x = Number(match[1]) + box.width / 2, y = Number(match[2]) + box.height / 2;
            view.x = frame.width / 2 - x * view.scale; view.y = frame.height / 2 - y * view.scale; applyView();
          }
          graph.addEventListener("wheel", event => {
            event.preventDefault();
            const frame = graph.getBoundingClientRect();
            zoom(event.deltaY < 0 ? 1.15 : 1 / 1.15, event.clientX - frame.left, event.clientY - frame.top);
          }, { passive: false });
          let drag = null;
          graph.addEventListener("pointerdown", event => { drag = { x: event.clientX - view.x, y: event.clientY - view.y }; });
          window.addEventListener("pointermove", event => {
            if (drag === null) return;
            view.x = event.clientX - drag.x; view.y = event.clientY - drag.y; applyView();
          });
          window.addEventListener("pointerup", () => { drag = null; });

          document.addEventListener("keydown", event => {
            if (event.target === search) { if (event.key === "Escape") search.blur(); return; }
            const frame = graph.getBoundingClientRect();
            switch (event.key) {
              case "ArrowLeft": showStep(current - 1); break;
              case "ArrowRight": showStep(current + 1); break;
              case "Home": showStep(1); break;
              case "End": showStep(data.steps.length); break;
              case "/": event.preventDefault(); search.focus(); break;
              case "+": case "=": zoom(1.2, frame.width / 2, frame.height / 2); break;
              case "-": zoom(1 / 1.2, frame.width / 2, frame.height / 2); break;
              case "0": view = { x: 0, y: 0, scale: 1 }; applyView(); break;
              case "Escape": selectNode(null); break;
              default: return;
            }
          });

          function summarize() {
            document.getElementById("summary").textContent =
              `${data.paradigm} \u00b7 ${data.nodes.length} nodes \u00b7 ${data.edges.length} edges \u00b7 ${data.steps.length} steps` +
              (data.dropped > 0 ? ` (${data.dropped} older steps dropped)` : "");
            graph.dataset.nodeCount = String(data.nodes.length);
            graph.dataset.edgeCount = String(data.edges.length);
          }

          // Live: the server sends each new step, the graph when its shape changed, and how
          // many old steps it dropped; the page follows the last step while it shows it.
          function follow() {
            const events = new EventSource("events?after=" + (data.dropped + data.steps.length));
            events.addEventListener("step", message => {
              const update = JSON.parse(message.data);
              let channel = data.channels.indexOf(update.channel);
              if (channel < 0) { channel = data.channels.length; data.channels.push(update.channel); }
              update.step.c = channel;
              const atEnd = current === data.steps.length;
              data.steps.push(update.step);
              summarize(); drawTimeline();
              if (atEnd) showStep(data.steps.length); else scrubber.max = String(data.steps.length);
            });
            events.addEventListener("graph", message => {
              const update = JSON.parse(message.data);
              data.nodes = update.nodes; data.edges = update.edges; data.statistics = update.statistics;
              index(); summarize(); draw(); showStep(current);
            });
            events.addEventListener("dropped", message => {
              const count = Math.min(Number(message.data), data.steps.length);
              data.steps.splice(0, count); data.dropped += count;
              current = Math.max(0, current - count);
              summarize(); drawTimeline(); showStep(current);
            });
            events.onerror = () => { document.getElementById("live").textContent = "disconnected"; };
            events.onopen = () => { document.getElementById("live").textContent = "live"; };
          }

          index();
          summarize();
          draw();
          drawTimeline();
          selectNode(null);
          const asked = /step=(\d+)/.exec(location.hash);
          showStep(asked ? Number(asked[1]) : 0);
          if (data.live) follow();
          window.addEventListener("hashchange", () => {
            const step = /step=(\d+)/.exec(location.hash);
            if (step) showStep(Number(step[1]));
          });
          document.body.dataset.blocked = String(blocked);
          document.body.dataset.resources = String(performance.getEntriesByType("resource").length);
          document.body.dataset.readyMs = String(Math.round(performance.now()));
          document.body.dataset.ready = "true";
        })();
        """#
}
