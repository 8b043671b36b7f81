import Resin
import ResinTesting
import TestSupport
import XCTest

/// The test store used from XCTest: it passes where it should, and its failures reach
/// XCTest (through `XCTFail`) with the diff and the calling line, not Swift Testing.
final class XCTestStoreTests: XCTestCase {
    private var failures: [(message: String, line: Int)] = []
    private var capturesFailures = false

    #if canImport(Darwin)
        override func record(_ issue: XCTIssue) {
            guard capturesFailures else { return super.record(issue) }
            failures.append((issue.compactDescription, issue.sourceCodeContext.location?.lineNumber ?? 0))
        }
    #else
        override func recordFailure(
            withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
        ) {
            guard capturesFailures else {
                return super.recordFailure(
                    withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            }
            failures.append((description, lineNumber))
        }
    #endif

    func testExhaustiveRoundTripPasses() async {
        let store = TestStore(initialState: SearchState()) { $0.register(searchParcel(Backend())) }
        store.send(Search(query: "xc")) {
            $0.query = "xc"
            $0.isSearching = true
        }
        await store.receive(Results(items: ["XC", "xc!"])) {
            $0.results = ["XC", "xc!"]
            $0.isSearching = false
        }
        await store.finish()
    }

    func testFailureIsReportedToXCTestWithDiffAndLine() {
        let store = TestStore(initialState: SearchState()) { $0.register(searchParcel(Backend())) }
        capturesFailures = true
        let line = #line + 1
        store.send(CancelSearch()) { $0.isSearching = true }
        capturesFailures = false
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual(failures.first?.line, line)
        XCTAssertTrue(failures.first?.message.contains("isSearching: true → false") ?? false, "\(failures)")
    }
}
