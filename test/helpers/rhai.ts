/** Shared helpers of the Rhai tests: run a script and show its value as Rhai's `debug` would, or its error. */
import { compileScript, debug, runScript, type RunLimits, type ScriptVariable } from '../../engine/rhai/index.js'

export function show(source: string, variables: ScriptVariable[] = [], limits?: RunLimits): string {
  return debug(runScript(compileScript(source), variables, { limits }).value)
}

/** The message of the error a script raises (compiling or running), or `no error`. */
export function failure(source: string, variables: ScriptVariable[] = [], limits?: RunLimits): string {
  try {
    runScript(compileScript(source), variables, { limits })
    return 'no error'
  } catch (err) {
    return (err as Error).message
  }
}
