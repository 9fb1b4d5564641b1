#!/usr/bin/env node
// The compiled service (npm install builds dist/ through the `prepare` script).
import '../dist/src/main.js'
