/**
 * The request body schemas of the workflow API, after n8n's OpenAPI spec (packages/cli/src/public-api/v1/handlers:
 * workflows/spec/schemas/workflow.yml, node.yml, workflowSettings.yml, tags/spec/schemas/tag.yml,
 * shared/spec/schemas/tagIds.yml, projects/spec/schemas/project.yml). Properties the API sets itself are
 * read-only: a request that sends them is refused, as n8n's validator refuses it.
 */
import type { Schema } from './schema.js'

const readOnlyString: Schema = { type: 'string', readOnly: true }
const string: Schema = { type: 'string' }
const boolean: Schema = { type: 'boolean' }
const number: Schema = { type: 'number' }
const object: Schema = { type: 'object' }

export const NODE_SCHEMA: Schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: string,
    name: string,
    webhookId: string,
    disabled: boolean,
    notesInFlow: boolean,
    notes: string,
    type: string,
    typeVersion: number,
    executeOnce: boolean,
    alwaysOutputData: boolean,
    retryOnFail: boolean,
    maxTries: number,
    waitBetweenTries: number,
    continueOnFail: boolean,
    onError: string,
    position: { type: 'array', items: number },
    parameters: object,
    credentials: object,
    createdAt: readOnlyString,
    updatedAt: readOnlyString,
  },
}

export const SETTINGS_SCHEMA: Schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    saveExecutionProgress: boolean,
    saveManualExecutions: boolean,
    saveDataErrorExecution: { type: 'string', enum: ['all', 'none'] },
    saveDataSuccessExecution: { type: 'string', enum: ['all', 'none'] },
    executionTimeout: number,
    errorWorkflow: string,
    timezone: string,
    executionOrder: string,
    callerPolicy: { type: 'string', enum: ['any', 'none', 'workflowsFromAList', 'workflowsFromSameOwner'] },
    callerIds: string,
    timeSavedPerExecution: number,
    availableInMCP: boolean,
  },
}

/** POST /workflows and PUT /workflows/{id}. */
export const WORKFLOW_SCHEMA: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'nodes', 'connections', 'settings'],
  properties: {
    id: readOnlyString,
    name: string,
    active: { type: 'boolean', readOnly: true },
    createdAt: readOnlyString,
    updatedAt: readOnlyString,
    isArchived: { type: 'boolean', readOnly: true },
    versionId: readOnlyString,
    triggerCount: { type: 'integer', readOnly: true },
    nodes: { type: 'array', items: NODE_SCHEMA },
    connections: object,
    settings: SETTINGS_SCHEMA,
    staticData: { anyOf: [{ type: 'string', format: 'jsonString', nullable: true }, { type: 'object', nullable: true }] },
    pinData: { type: 'object', nullable: true },
    meta: { type: 'object', nullable: true, readOnly: true },
    tags: { type: 'array', readOnly: true },
    // n8n's schema lists the sharing relation without marking it read-only; what is sent there is not used.
    shared: { type: 'array', items: object },
  },
}

/** POST /tags and PUT /tags/{id}. */
export const TAG_SCHEMA: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { id: readOnlyString, name: string, createdAt: readOnlyString, updatedAt: readOnlyString },
}

/** PUT /workflows/{id}/tags. */
export const TAG_IDS_SCHEMA: Schema = {
  type: 'array',
  items: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: string } },
}

/** POST /projects. */
export const PROJECT_SCHEMA: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { id: readOnlyString, name: string, type: readOnlyString },
}

/** PUT /workflows/{id}/transfer (n8n parses it with zod, which ignores other properties). */
export const TRANSFER_SCHEMA: Schema = {
  type: 'object',
  required: ['destinationProjectId'],
  properties: { destinationProjectId: string },
}
