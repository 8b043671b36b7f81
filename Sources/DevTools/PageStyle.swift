/// The page's styles: a light and a dark theme chosen by the system's setting, through CSS
/// variables.
enum PageStyle {
    static let source = #"""
        :root {
          color-scheme: light dark;
          --background: #fbfbfd; --panel: #ffffff; --text: #1d1d1f; --muted: #6e6e73; --line: #d2d2d7;
          --input: #dbeafe; --input-edge: #2563eb; --derived: #f4f4f5; --derived-edge: #71717a;
          --observed: #dcfce7; --observed-edge: #16a34a; --changed: #f59e0b; --told: #dc2626;
          --match: #a855f7; --edge: #a1a1aa;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --background: #161618; --panel: #1f1f22; --text: #f4f4f5; --muted: #a1a1aa; --line: #3f3f46;
            --input: #1e3a8a; --input-edge: #60a5fa; --derived: #27272a; --derived-edge: #a1a1aa;
            --observed: #14532d; --observed-edge: #4ade80; --changed: #fbbf24; --told: #f87171;
            --match: #c084fc; --edge: #52525b;
          }
        }
        * { box-sizing: border-box; }
        body {
          margin: 0; height: 100vh; display: grid; grid-template-rows: auto 1fr auto;
          background: var(--background); color: var(--text);
          font: 13px/1.4 -apple-system, system-ui, "Segoe UI", Helvetica, Arial, sans-serif;
        }
        header { display: flex; gap: 16px; align-items: center; padding: 8px 16px; border-bottom: 1px solid var(--line); }
        header h1 { font-size: 15px; margin: 0; }
        #summary, #matches, #live, .hint { color: var(--muted); }
        #search { margin-left: auto; width: 240px; padding: 4px 8px; border: 1px solid var(--line); border-radius: 6px;
          background: var(--panel); color: var(--text); }
        main { display: grid; grid-template-columns: 1fr 340px; min-height: 0; }
        #graph-pane { position: relative; min-height: 0; overflow: hidden; }
        #graph { width: 100%; height: 100%; display: block; cursor: grab; touch-action: none; }
        #graph:active { cursor: grabbing; }
        .edge { fill: none; stroke: var(--edge); stroke-width: 1.2; }
        .node rect, .group rect { stroke-width: 1.5; }
        .node.input rect { fill: var(--input); stroke: var(--input-edge); }
        .node.derived rect { fill: var(--derived); stroke: var(--derived-edge); }
        .node.observed rect { fill: var(--observed); stroke: var(--observed-edge); }
        .group rect { fill: var(--panel); stroke: var(--derived-edge); stroke-dasharray: 4 3; }
        .node text, .group text { fill: var(--text); font-size: 12px; pointer-events: none; }
        .node text.kind { fill: var(--muted); font-size: 10px; }
        .node, .group { cursor: pointer; }
        .node:focus, .group:focus { outline: none; }
        .node:focus rect, .group:focus rect { stroke-width: 3; }
        .changed rect { stroke: var(--changed) !important; stroke-width: 4 !important; }
        .told rect { stroke: var(--told) !important; stroke-width: 4 !important; }
        .match rect { stroke: var(--match) !important; stroke-dasharray: 3 2; stroke-width: 3 !important; }
        .selected rect { filter: drop-shadow(0 0 4px var(--match)); }
        #legend { position: absolute; left: 12px; bottom: 12px; background: var(--panel); border: 1px solid var(--line);
          border-radius: 8px; padding: 6px 10px; display: flex; gap: 12px; flex-wrap: wrap; max-width: calc(100% - 24px); }
        #legend span::before { content: ""; display: inline-block; width: 12px; height: 12px; border-radius: 3px;
          margin-right: 5px; vertical-align: -2px; border: 2px solid; }
        #legend .input::before { background: var(--input); border-color: var(--input-edge); }
        #legend .derived::before { background: var(--derived); border-color: var(--derived-edge); }
        #legend .observed::before { background: var(--observed); border-color: var(--observed-edge); }
        #legend .changed::before { border-color: var(--changed); }
        #legend .told::before { border-color: var(--told); }
        #legend .keys::before { display: none; }
        aside { border-left: 1px solid var(--line); overflow: auto; background: var(--panel); }
        aside section { padding: 8px 14px; border-bottom: 1px solid var(--line); }
        aside h2 { font-size: 14px; margin: 4px 0 8px; word-break: break-all; }
        aside h3 { font-size: 12px; margin: 10px 0 4px; color: var(--muted); text-transform: uppercase; }
        dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 0; }
        dt { color: var(--muted); }
        dd { margin: 0; word-break: break-word; white-space: pre-wrap; }
        ul.links { list-style: none; padding: 0; margin: 0; }
        ul.links button { background: none; border: none; color: var(--input-edge); padding: 1px 0; cursor: pointer;
          font: inherit; text-align: left; }
        table { border-collapse: collapse; width: 100%; }
        td { border-top: 1px solid var(--line); padding: 2px 4px; vertical-align: top; word-break: break-word; white-space: pre-wrap; }
        td.path { color: var(--muted); }
        td.old { color: var(--told); text-decoration: line-through; }
        td.new { color: var(--observed-edge); }
        footer { border-top: 1px solid var(--line); padding: 6px 16px; }
        #controls { display: flex; gap: 8px; align-items: center; }
        #controls button { background: var(--panel); color: var(--text); border: 1px solid var(--line); border-radius: 6px; }
        #scrubber { flex: 1; }
        #timeline { width: 100%; display: block; margin-top: 4px; cursor: pointer; }
        #timeline .lane { fill: var(--muted); font-size: 11px; }
        #timeline .ticks { stroke: var(--input-edge); stroke-width: 1; }
        #cursor { stroke: var(--changed); stroke-width: 2; }
        """#
}
