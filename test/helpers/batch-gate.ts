/**
 * Hold batches in `processing` for as long as a test needs, instead of a fixed delay window that a slow
 * machine can overrun: each batch, after its `processing` mark, checks the gate file and waits while it
 * exists (polled every 10 ms; src/server.ts, heldWhileExists). Close the gate before registering the task to hold;
 * an open that is closed again within 10 ms may go unseen by the waiting batch: to let exactly one waiting batch
 * through and hold the next, `pass()` it instead.
 */
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempDir } from './server.js'

export interface BatchGate {
  /** The server's environment for this gate. */
  env: { TESSERA_TEST_BATCH_GATE: string }
  /** From now on, batches wait in `processing`. */
  close(): void
  /** Let the waiting batch (and the next ones) run. */
  open(): void
  /** Let one batch through the closed gate (the one waiting, else the next to arrive); the gate stays closed. */
  pass(): void
}

export function batchGate(t: { teardown(fn: () => unknown): void }, closed = false): BatchGate {
  const dir = tempDir('tessera-gate-')
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const path = join(dir, 'closed')
  let passes = 0
  const gate = {
    env: { TESSERA_TEST_BATCH_GATE: path },
    close: () => writeFileSync(path, ''),
    open: () => rmSync(path, { force: true }),
    pass: () => writeFileSync(`${path}.pass-${++passes}`, ''),
  }
  if (closed) gate.close()
  return gate
}
