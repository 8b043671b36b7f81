import Incremental
import Testing

@Suite("Conformance: batching")
struct BatchingConformanceTests {
    @Test("#65 writes delayed until batch completes")
    func writesDelayedUntilBatchCompletes() {
        withGraph { graph in
            let a = graph.input(0)
            var runs = 0
            graph.effect {
                _ = a.value
                runs += 1
            }
            #expect(runs == 1)
            graph.batch {
                a.write(1)
                a.write(2)
                a.write(3)
            }
            #expect(runs == 2)
            #expect(a.value == 3)
        }
    }

    @Test("#66 nested batches: outer completion triggers propagation")
    func nestedBatches() {
        withGraph { graph in
            let a = graph.input(0)
            var runs = 0
            graph.effect {
                _ = a.value
                runs += 1
            }
            graph.batch {
                a.write(1)
                graph.batch { a.write(2) }
                #expect(runs == 1)
                a.write(3)
            }
            #expect(runs == 2)
            #expect(a.value == 3)
        }
    }

    @Test("#67 signals readable with updated value inside batch")
    func signalsReadableInsideBatch() {
        withGraph { graph in
            let a = graph.input(0)
            graph.batch {
                a.write(1)
                #expect(a.value == 1)
                a.write(2)
                #expect(a.value == 2)
            }
        }
    }

    @Test("#68 computed readable with updated sources inside batch")
    func computedReadableInsideBatch() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.computed { a.value * 2 }
            graph.batch {
                a.write(5)
                #expect(b.value == 10)
            }
        }
    }

    @Test("#69 pending effects run even if batch callback throws")
    func pendingEffectsRunAfterThrow() {
        withGraph { graph in
            let a = graph.input(0)
            var runs = 0
            graph.effect {
                _ = a.value
                runs += 1
            }
            #expect(throws: Boom.self) {
                try graph.batch { () throws(Boom) in
                    a.write(1)
                    throw Boom()
                }
            }
            #expect(runs == 2)
            #expect(a.value == 1)
        }
    }

    @Test("#70 effect first run is immediate even inside batch")
    func effectFirstRunImmediateInBatch() {
        withGraph { graph in
            let a = graph.input(0)
            var runs = 0
            graph.batch {
                graph.effect {
                    _ = a.value
                    runs += 1
                }
                #expect(runs == 1)
            }
            #expect(runs == 1)
        }
    }

    @Test("#71 no duplicate listener notifications within batch")
    func noDuplicateNotifications() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.input(0)
            var runs = 0
            graph.effect {
                _ = a.value
                _ = b.value
                runs += 1
            }
            graph.batch {
                a.write(1)
                b.write(1)
            }
            #expect(runs == 2)
        }
    }

    @Test("#72 intermediate values skipped (only final value observed)")
    func intermediateValuesSkipped() {
        withGraph { graph in
            let a = graph.input(0)
            var values: [Int] = []
            graph.effect { values.append(a.value) }
            #expect(values == [0])
            graph.batch {
                a.write(1)
                a.write(2)
                a.write(3)
            }
            #expect(values == [0, 3])
        }
    }

    @Test("#119 batch: computed same result despite source change — no effect run")
    func computedSameResultInBatch() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.input(0)
            let c = graph.computed { a.value + b.value }
            var runs = 0
            graph.effect {
                _ = c.value
                runs += 1
            }
            #expect(c.value == 0)
            graph.batch {
                a.write(1)
                b.write(-1)
            }
            #expect(c.value == 0)
            #expect(runs == 1)
        }
    }

    @Test("#120 cleanup writes inside effect are implicitly batched")
    func cleanupWritesBatched() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.input(0)
            var log: [String] = []
            graph.effect {
                _ = a.value
                graph.onCleanup { b.write(a.value) }
            }
            graph.effect { log.append("b:\(b.value)") }
            log = []
            a.write(1)
            #expect(log.count >= 1)
            #expect(log.last == "b:1")
        }
    }

    // Difference: an effect's body cannot throw in Swift. The suite's throwing effect is an
    // effect that fails on its own (it records the failure); the others still run.
    @Test("#121 pending effects run even if some effects throw during batch")
    func effectsRunDespiteFailingEffect() {
        withGraph { graph in
            let a = graph.input(0)
            var goodRuns = 0
            var failures = 0
            graph.effect {
                _ = a.value
                goodRuns += 1
            }
            graph.effect { if a.value > 0 { failures += 1 } }
            graph.batch { a.write(1) }
            #expect(goodRuns == 2)
            #expect(failures == 1)
        }
    }

    @Test("#122 post-batch writes work normally")
    func postBatchWrites() {
        withGraph { graph in
            let a = graph.input(0)
            var runs = 0
            graph.effect {
                _ = a.value
                runs += 1
            }
            graph.batch { a.write(1) }
            #expect(runs == 2)
            a.write(2)
            #expect(runs == 3)
            #expect(a.value == 2)
        }
    }

    @Test("#123 repeated no-op batches don't re-trigger effects")
    func repeatedNoOpBatches() {
        withGraph { graph in
            let a = graph.input(0)
            var runs = 0
            graph.effect {
                _ = a.value
                runs += 1
            }
            for value in 1...3 {
                graph.batch {
                    a.write(value)
                    a.write(0)
                }
                #expect(runs == 1)
            }
        }
    }

    @Test("#124 trigger+dispose+retrigger in batch = no run")
    func triggerDisposeRetrigger() {
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
                a.write(2)
            }
            #expect(runs == 1)
        }
    }

    @Test("#125 batch: source reverts → computed not notified")
    func sourceRevertsInBatch() {
        withGraph { graph in
            let a = graph.input(0)
            let c = graph.computed { a.value * 2 }
            var runs = 0
            graph.effect {
                _ = c.value
                runs += 1
            }
            graph.batch {
                a.write(5)
                a.write(0)
            }
            #expect(runs == 1)
            #expect(c.value == 0)
        }
    }

    @Test("#126 new effect inside batch after write sees updated value")
    func newEffectInsideBatchSeesWrite() {
        withGraph { graph in
            let a = graph.input(0)
            var seen = -1
            graph.batch {
                a.write(42)
                graph.effect { seen = a.value }
            }
            #expect(seen == 42)
        }
    }

    @Test("#127 unsubscribe inside batch: not called at end")
    func unsubscribeInsideBatch() {
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

    @Test("#128 reading computed in batch forces upstream evaluation")
    func readingComputedInBatch() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.computed { a.value + 1 }
            let c = graph.computed { b.value * 2 }
            graph.batch {
                a.write(5)
                #expect(c.value == 12)
                #expect(b.value == 6)
            }
        }
    }

    @Test("#129 reading one computed doesn't notify sibling effect early")
    func readingSiblingDoesNotNotify() {
        withGraph { graph in
            let a = graph.input(0)
            let c1 = graph.computed { a.value + 1 }
            let c2 = graph.computed { a.value * 2 }
            var c2Runs = 0
            graph.effect {
                _ = c2.value
                c2Runs += 1
            }
            graph.batch {
                a.write(5)
                _ = c1.value
                #expect(c2Runs == 1)
            }
            #expect(c2Runs == 2)
        }
    }

    @Test("#130 effect inner writes are implicitly batched")
    func effectInnerWritesBatched() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.input(0)
            let c = graph.input(0)
            var log: [String] = []
            graph.effect {
                let value = a.value
                b.write(value + 1)
                c.write(value + 2)
            }
            graph.effect { log.append("\(b.value),\(c.value)") }
            log = []
            a.write(10)
            #expect(log == ["11,12"])
        }
    }

    @Test("#131 derived-of-derived: source reverts in batch")
    func derivedOfDerivedReverts() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.input(10)
            let c1 = graph.computed { a.value * 2 }
            let c2 = graph.computed { c1.value + b.value }
            var runs = 0
            graph.effect {
                _ = c2.value
                runs += 1
            }
            graph.batch {
                a.write(5)
                a.write(0)
                b.write(20)
            }
            #expect(c2.value == 20)
            #expect(runs == 2)
        }
    }

    @Test("#132 batch: computed not recomputed if dep reverts")
    func computedNotRecomputedIfDepReverts() {
        withGraph { graph in
            let a = graph.input(0)
            var calls = 0
            let c = graph.computed {
                calls += 1
                return a.value * 2
            }
            graph.effect { _ = c.value }
            calls = 0
            graph.batch {
                a.write(5)
                a.write(0)
            }
            _ = c.value
            #expect(calls == 0)
        }
    }

    @Test("#74 multiple signals grouped in single update")
    func multipleSignalsGrouped() {
        withGraph { graph in
            let a = graph.input(0)
            let b = graph.input(0)
            var runs = 0
            graph.effect {
                _ = a.value
                _ = b.value
                runs += 1
            }
            graph.batch {
                a.write(1)
                b.write(1)
            }
            #expect(runs == 2)
            #expect(a.value == 1)
            #expect(b.value == 1)
        }
    }

    @Test("#73 batch write returns to original: no notification")
    func batchThatRevertsNotifiesNothing() {
        withGraph { graph in
            let a = graph.input(0)
            var runs = 0
            graph.effect {
                _ = a.value
                runs += 1
            }
            graph.batch {
                a.write(1)
                a.write(0)
            }
            #expect(runs == 1)
            #expect(a.value == 0)
        }
    }
}
