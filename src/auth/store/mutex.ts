/**
 * One-at-a-time sections per key. Every change to a user is a read-modify-write of its record; running those for
 * one key in sequence makes each one atomic (the process is the only writer of its database), which is what
 * keeps 100 parallel wrong passwords from all reading the same attempt count.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>()

  run<T>(key: string, section: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve()
    const result = previous.then(section, section)
    const tail = result.catch(() => undefined)
    this.tails.set(key, tail)
    void tail.then(() => { if (this.tails.get(key) === tail) this.tails.delete(key) })
    return result
  }

  /** Hold several keys at once, always taken in the same (sorted) order so two holders never deadlock. */
  runAll<T>(keys: string[], section: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(keys)].sort()
    const nest = (i: number): Promise<T> => (i === sorted.length ? section() : this.run(sorted[i]!, () => nest(i + 1)))
    return nest(0)
  }
}
