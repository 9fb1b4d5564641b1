/** The tasks scenario as the entry runs it: its report (tasks.json and .md), headline noise figures and chart. */
import type { ReportedScenario } from '../../harness/reported-scenario.js'
import { renderTasksMarkdown } from '../../report/tasks.js'
import type { TasksOptions } from './options.js'
import { runTasks, tasksFailures, tasksSeries } from './run.js'
import type { TasksResult } from './types.js'

export function tasksScenario(options: TasksOptions): ReportedScenario<TasksResult> {
  return {
    name: 'tasks', title: 'Tessera task throughput benchmark (issue 6)',
    run: (open) => runTasks(options, open),
    markdown: renderTasksMarkdown, failures: tasksFailures,
    noise: {
      'one-document tasks/s': (r) => r.oneDoc.processingTasksPerSecond,
      'mixed tasks/s': (r) => r.mixed.tasksPerSecond,
    },
    charts: (r) => ({ 'tasks-reindex': { title: 'Settings-driven reindex time (s)', kind: 'bar', rows: tasksSeries(r).reindex, x: { field: 'change', title: 'settings change' }, y: { field: 'seconds', title: 'seconds to succeeded' } } }),
  }
}
