#!/usr/bin/env node
// The compiled service (npm install builds dist/ through the `prepare` script); `tessera bench …` runs the
// benchmark suite (the same as `npm run bench -- …`).
if (process.argv[2] === 'bench') {
  process.argv.splice(2, 1)
  await import('../dist/bench/run.js')
} else {
  await import('../dist/src/main.js')
}
