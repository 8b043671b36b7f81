import Incremental
import Testing

@Suite("Conformance: effect lifecycle")
struct EffectLifecycleConformanceTests {
    @Test("#35 effect runs callback immediately on creation")
    func runsImmediately() {
        withGraph { graph in
            let a = graph.input(0)
            var runs = 0
            graph.effect {
                _ = a.value
                runs += 1
            }
            #expect(runs == 1)
        }
    }

    @Test("#36 effect re-runs when dependency changes")
    func rerunsOnChange() {
        withGraph { graph in
            let a = graph.input("a")
            var values: [String] = []
            graph.effect { values.append(a.value) }
            a.write("b")
            a.write("c")
            #expect(values == ["a", "b", "c"])
        }
    }

    @Test("#37 effect disposal stops re-runs")
    func disposalStopsReruns() {
        withGraph { graph in
            let a = graph.input(0)
            var runs = 0
            let effect = graph.effect {
                _ = a.value
                runs += 1
            }
            effect.dispose()
            a.write(1)
            #expect(runs == 1)
            #expect(effect.isDisposed)
        }
    }

    @Test("#38 effect cleanup fn called before each re-run")
    func cleanupBeforeEachRun() {
        withGraph { graph in
            let a = graph.input(0)
            var log: [String] = []
            graph.effect {
                let value = a.value
                log.append("run:\(value)")
                graph.onCleanup { log.append("cleanup:\(value)") }
            }
            #expect(log == ["run:0"])
            a.write(1)
            #expect(log == ["run:0", "cleanup:0", "run:1"])
            a.write(2)
            #expect(log == ["run:0", "cleanup:0", "run:1", "cleanup:1", "run:2"])
        }
    }

    @Test("#39 effect cleanup fn called on disposal")
    func cleanupOnDisposal() {
        withGraph { graph in
            let a = graph.input(0)
            var cleaned = false
            let effect = graph.effect {
                _ = a.value
                graph.onCleanup { cleaned = true }
            }
            #expect(!cleaned)
            effect.dispose()
            #expect(cleaned)
        }
    }

    @Test("#40 effect cleanup runs outside reactive evaluation context")
    func cleanupUntracked() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.input(100)
            var runs = 0
            graph.effect {
                _ = a.value
                runs += 1
                graph.onCleanup { _ = b.value }
            }
            a.write(1)
            #expect(runs == 2)
            b.write(200)
            #expect(runs == 2)
        }
    }

    @Test("#42 effect not executed if disposed during pending batch")
    func disposedDuringBatch() {
        withGraph { graph in
            let a = graph.input(0)
            var runs = 0
            let effect = graph.effect {
                _ = a.value
                runs += 1
            }
            graph.batch {
                a.write(1)
                effect.dispose()
            }
            #expect(runs == 1)
        }
    }

    @Test("#108 effect self-dispose during execution is safe")
    func selfDisposeDuringRun() {
        withGraph { graph in
            let a = graph.input(0)
            var runs = 0
            var effect: RunningEffect?
            effect = graph.effect {
                runs += 1
                _ = a.value
                if runs == 2 { effect?.dispose() }
            }
            a.write(1)
            #expect(runs == 2)
            a.write(2)
            #expect(runs == 2)
        }
    }

    @Test("#110 double-dispose is safe")
    func doubleDispose() {
        withGraph { graph in
            let a = graph.input(0)
            var cleanups = 0
            let effect = graph.effect {
                _ = a.value
                graph.onCleanup { cleanups += 1 }
            }
            effect.dispose()
            #expect(cleanups == 1)
            effect.dispose()
            #expect(cleanups == 1)
        }
    }

    @Test("#111 cleanup-triggered dispose prevents re-run")
    func cleanupDisposes() {
        withGraph { graph in
            let a = graph.input(0)
            var runs = 0
            var effect: RunningEffect?
            effect = graph.effect {
                runs += 1
                _ = a.value
                graph.onCleanup { effect?.dispose() }
            }
            a.write(1)
            #expect(runs == 1)
            a.write(2)
            #expect(runs == 1)
        }
    }

    @Test("#141 dispose during execution then continue: no re-run")
    func disposeMidRunThenContinue() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.input(0)
            var runs = 0
            var effect: RunningEffect?
            effect = graph.effect {
                runs += 1
                if a.value == 1 { effect?.dispose() }
                _ = b.value
            }
            a.write(1)
            #expect(runs == 2)
            b.write(1)
            #expect(runs == 2)
            a.write(2)
            #expect(runs == 2)
        }
    }

    @Test("#143 destroyed effect not re-scheduled on later updates")
    func destroyedNotRescheduled() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.input(0)
            var runs = 0
            let effect = graph.effect {
                _ = a.value
                _ = b.value
                runs += 1
            }
            effect.dispose()
            a.write(1)
            b.write(1)
            a.write(2)
            b.write(2)
            #expect(runs == 1)
        }
    }

    @Test("#178 dispose cleanup reads don't leak to parent tracking context")
    func disposalCleanupUntracked() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.input(100)
            var outerRuns = 0
            let inner = graph.effect {
                _ = a.value
                graph.onCleanup { _ = b.value }
            }
            graph.effect {
                _ = a.value
                outerRuns += 1
                if a.value == 1 { inner.dispose() }
            }
            outerRuns = 0
            a.write(1)
            #expect(outerRuns == 1)
            outerRuns = 0
            b.write(200)
            #expect(outerRuns == 0)
        }
    }

    @Test("#214 parent disposes and recreates child: downstream sees correct value")
    func childComputedRecreated() {
        withGraph { graph in
            let a = graph.input(1)
            var inner: I<Int>?
            graph.effect {
                let c = graph.computed { a.value }
                _ = a.value
                inner = c
            }
            #expect(inner?.value == 1)
            a.write(2)
            #expect(inner?.value == 2)
            a.write(3)
            #expect(inner?.value == 3)
        }
    }

    @Test("#201 computed-triggered disposal: effect skipped and no subscription leak")
    func computedDisposesEffect() {
        withGraph { graph in
            let s = graph.input(0)
            var first: RunningEffect?
            var firstRuns = 0
            let a = graph.computed {
                if s.value == 1 { first?.dispose() }
                return s.value
            }
            first = graph.effect {
                _ = a.value
                firstRuns += 1
            }
            graph.effect { _ = a.value }
            #expect(firstRuns == 1)
            s.write(1)
            #expect(firstRuns == 1)
            s.write(2)
            s.write(3)
            #expect(firstRuns == 1)
        }
    }

    @Test("#202 computed-triggered disposal: sibling effects still notified")
    func computedDisposalNotifiesSiblings() {
        withGraph { graph in
            let s = graph.input(0)
            var first: RunningEffect?
            var secondValue = -1
            let a = graph.computed {
                if s.value == 1 { first?.dispose() }
                return s.value
            }
            first = graph.effect { _ = a.value }
            graph.effect { secondValue = a.value }
            #expect(secondValue == 0)
            s.write(1)
            #expect(secondValue == 1)
        }
    }

    @Test("#203 computed disposal with unchanged-value sibling computed")
    func computedDisposalWithUnchangedSibling() {
        withGraph { graph in
            let s = graph.input(0)
            var effect: RunningEffect?
            let a = graph.computed {
                _ = s.value
                return 0
            }
            let a2 = graph.computed {
                if s.value != 0 { effect?.dispose() }
                return s.value
            }
            let b = graph.computed {
                _ = a.value
                _ = a2.value
                return 0
            }
            effect = graph.effect { _ = b.value }
            s.write(1)
            #expect(effect?.isDisposed == true)
        }
    }

    @Test("#41 disposed effect never re-notified")
    func disposedEffectNeverNotified() {
        withGraph { graph in
            let a = graph.input(0)
            var runs = 0
            let effect = graph.effect {
                _ = a.value
                runs += 1
            }
            effect.dispose()
            a.write(1)
            a.write(2)
            a.write(3)
            #expect(runs == 1)
            #expect(!a.isNecessary)
        }
    }

    @Test("#109 only the most recent cleanup function runs")
    func onlyLatestCleanupRuns() {
        withGraph { graph in
            let a = graph.input(0)
            var log: [String] = []
            graph.effect {
                let value = a.value
                graph.onCleanup { log.append("cleanup:\(value)") }
            }
            a.write(1)
            a.write(2)
            #expect(log == ["cleanup:0", "cleanup:1"])
        }
    }

    @Test("#140 cleanup called when effect self-disposes during execution")
    func cleanupOnSelfDisposal() {
        withGraph { graph in
            let a = graph.input(0)
            var log: [String] = []
            var effect: RunningEffect?
            effect = graph.effect {
                let value = a.value
                log.append("run:\(value)")
                graph.onCleanup { log.append("cleanup:\(value)") }
                if value == 1 { effect?.dispose() }
            }
            #expect(log == ["run:0"])
            a.write(1)
            // The run that disposed its effect still registered its cleanup: it runs when
            // the run ends, and the effect runs no more.
            #expect(log == ["run:0", "cleanup:0", "run:1", "cleanup:1"])
            #expect(effect?.isDisposed == true)
            a.write(2)
            #expect(log == ["run:0", "cleanup:0", "run:1", "cleanup:1"])
        }
    }

    @Test("#142 one-shot conditional effect (auto-dispose when condition met)")
    func oneShotEffect() {
        withGraph { graph in
            let a = graph.input(0)
            var runs = 0
            var effect: RunningEffect?
            effect = graph.effect {
                let value = a.value
                runs += 1
                if value >= 3 { effect?.dispose() }
            }
            a.write(1)
            #expect(runs == 2)
            a.write(3)
            #expect(runs == 3)
            a.write(4)
            a.write(5)
            #expect(runs == 3)
            #expect(!a.isNecessary)
        }
    }

    @Test("#144 cleanup on destroy is idempotent")
    func cleanupOnDestroyIdempotent() {
        withGraph { graph in
            let a = graph.input(0)
            var cleanups = 0
            let effect = graph.effect {
                _ = a.value
                graph.onCleanup { cleanups += 1 }
            }
            effect.dispose()
            #expect(cleanups == 1)
            effect.dispose()
            effect.dispose()
            #expect(cleanups == 1)
        }
    }
}
