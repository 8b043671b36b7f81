import Foundation
import ReactiveCore

/// A devtools page: one self-contained HTML file that shows a `Trace` (a program's graph,
/// its inputs on a timeline, and what each input changed) in a browser.
///
/// ```swift
/// let page = DevToolsPage(trace: tracer.trace, title: "Cart")
/// try page.write(to: path)    // then open the file in a browser
/// ```
///
/// The page loads nothing: its styles, its script and the trace are inline, and its content
/// security policy forbids every other source. Labels, values and inputs are text on the
/// page whatever they hold (a label `</script>` included); a value longer than
/// `Trace.valueLimit` characters is cut with a marker saying how long it was.
///
/// On the page: the graph, laid out left to right by height (inputs on the left, observers
/// on the right), zoomed with the wheel and panned with a drag; a column of more than 40
/// nodes shows its first 39 and a group that opens on a click or a search. A click on a node
/// lists what it reads and what reads it. The timeline below has a lane per channel and a
/// tick per input; choosing a step (a click, the scrubber, ← and →) marks the nodes that
/// changed in it and the observed ones among them on the graph, and lists its input, its
/// counters, the values it set and, for a store, its state's diff. `#step=N` in the page's
/// address opens it at step N (from 1). Keys: ← → Home End choose a step, `/` searches,
/// `+` `-` `0` zoom, Escape clears the selection.
public struct DevToolsPage: Sendable {
    /// What the page shows.
    public var trace: Trace
    /// The page's title.
    public var title: String

    /// A page showing `trace`, titled `title` (the paradigm's name by default).
    public init(trace: Trace, title: String? = nil) {
        self.trace = trace
        self.title = title ?? trace.paradigm
    }

    /// A page showing `inspection` alone: its graph, with no steps.
    public init(inspection: Inspection, title: String? = nil) {
        self.init(trace: Trace(paradigm: inspection.paradigm, graph: inspection), title: title)
    }

    /// The page's HTML.
    public var html: String { Self.html(trace: trace, title: title, live: false) }

    /// Writes the page's HTML to the file at `path`, replacing it.
    public func write(to path: String) throws {
        try Data(html.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// The page for `trace`; `live` makes its script follow the server's events.
    static func html(trace: Trace, title: String, live: Bool) -> String {
        let data = PageData(trace: trace, title: title, live: live).text
        var page = ""
        page.reserveCapacity(data.utf8.count + PageScript.source.utf8.count + PageStyle.source.utf8.count + 4_096)
        let connect = live ? "'self'" : "'none'"
        page += """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; \
            script-src 'unsafe-inline'; connect-src \(connect); img-src data:; base-uri 'none'; form-action 'none'">
            <title>\(escaped(title)) · devtools</title>
            <style>
            \(PageStyle.source)
            </style>
            </head>
            <body data-paradigm="\(escaped(trace.paradigm))">
            <header>
            <h1>\(escaped(title))</h1>
            <span id="summary"></span>
            <span id="live">\(live ? "connecting" : "")</span>
            <span id="matches"></span>
            <input id="search" type="search" placeholder="Search nodes ( / )" aria-label="Search nodes">
            </header>
            <main>
            <section id="graph-pane">
            <svg id="graph" role="img" aria-label="The program's graph"><g id="viewport"><g id="edges"></g><g id="nodes"></g></g></svg>
            <div id="legend"><span class="input">input</span><span class="derived">derived</span>\
            <span class="observed">observed</span><span class="changed">changed in the step</span>\
            <span class="told">observers told</span><span class="keys">← → step · / search · + − 0 zoom</span></div>
            </section>
            <aside>
            <section id="step-panel"></section>
            <section id="node-panel"></section>
            </aside>
            </main>
            <footer>
            <div id="controls"><button id="previous" aria-label="Previous step">◀</button>\
            <input id="scrubber" type="range" min="0" max="0" value="0" aria-label="Step">\
            <button id="next" aria-label="Next step">▶</button><span id="step-label"></span></div>
            <svg id="timeline" role="img" aria-label="The inputs on a timeline"></svg>
            </footer>
            <script type="application/json" id="trace">
            """
        page += data
        page += "</script>\n<script>\n"
        page += PageScript.source
        page += "\n</script>\n</body>\n</html>\n"
        return page
    }

    /// `text` as HTML text or an attribute's value.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
