/**
 * Which nodes can start a workflow on their own, so that activating it makes sense. n8n asks each node's type
 * whether it has a trigger, poll or webhook method, and ignores the manual starting nodes; without node type
 * descriptions, Tessera goes by the type name: n8n's trigger nodes are named `...Trigger`, the Webhook node is
 * `n8n-nodes-base.webhook`, and the legacy schedule nodes Cron and Interval trigger too. Disabled nodes never do.
 */
import type { WorkflowNode } from './types.js'
import { ApiError } from './errors.js'

/** Nodes named like triggers that only start a workflow by hand or from another workflow (n8n's STARTING_NODES and its sub-workflow and error triggers). */
const NOT_ACTIVATING = new Set([
  'n8n-nodes-base.manualTrigger',
  '@n8n/n8n-nodes-langchain.manualChatTrigger',
  'n8n-nodes-base.start',
  'n8n-nodes-base.executeWorkflowTrigger',
  'n8n-nodes-base.errorTrigger',
])

const ALWAYS_TRIGGERS = new Set(['n8n-nodes-base.webhook', 'n8n-nodes-base.cron', 'n8n-nodes-base.interval'])

export function isTrigger(node: WorkflowNode): boolean {
  const type = node.type
  if (typeof type !== 'string' || node.disabled === true || NOT_ACTIVATING.has(type)) return false
  return ALWAYS_TRIGGERS.has(type) || type.endsWith('Trigger')
}

/** The number of nodes that would start the workflow once active; throws n8n's activation error when there are none. */
export function triggersToActivate(workflow: { id: string; name: string; nodes: WorkflowNode[] }): number {
  const count = workflow.nodes.filter(isTrigger).length
  if (count === 0) {
    // ActiveWorkflowManager's WorkflowActivationError, with formatWorkflow's `"name" (ID: id)`.
    throw new ApiError(400, `Workflow "${workflow.name}" (ID: ${workflow.id}) has no node to start the workflow - at least one trigger, poller or webhook node is required`)
  }
  return count
}
