import { randomUUID } from 'node:crypto';
import { A2A_ERRORS, A2aRpcError, canonicalState, invalidParams, v1State, type A2aDialect } from './a2a-protocol.js';
import type { A2aTask, A2aTaskUpdate } from './a2a-task.types.js';

/** A person's decision on the call a task paused at, sent back on that task. */
export interface A2aDecision {
  approvalId: string;
  approvalToken: string;
  decision: 'approve' | 'deny';
  modifiedArguments?: Record<string, unknown>;
}

/** A message send, whatever the dialect. */
export interface A2aSendParams {
  text: string;
  skillId?: string;
  organizationId?: string;
  contextId?: string;
  taskId?: string;
  blocking: boolean;
  decision?: A2aDecision;
  push?: A2aPushConfigInput;
}

/** A push notification configuration as a client sends it. */
export interface A2aPushConfigInput {
  id?: string;
  url: string;
  token?: string;
  authentication?: { scheme: string; credentials?: string };
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The params object of a request (an absent one is empty). */
export function paramsOf(params: unknown): Json {
  if (params === undefined) return {};
  if (!isObject(params)) throw invalidParams('params must be an object.');
  return params;
}

/** The text of a message's parts (`{kind:'text', text}` or `{text}`); other media are refused. */
function textOf(parts: unknown[]): { text: string; data: Json[] } {
  const texts: string[] = [];
  const data: Json[] = [];
  for (const part of parts) {
    if (!isObject(part)) throw invalidParams('message.parts holds a part that is not an object.');
    if (typeof part.text === 'string') texts.push(part.text);
    else if (isObject(part.data)) data.push(part.data);
    else throw new A2aRpcError(A2A_ERRORS.CONTENT_TYPE_NOT_SUPPORTED, 'Only text and data parts are accepted.');
  }
  return { text: texts.join('\n'), data };
}

function decisionOf(candidates: (Json | undefined)[]): A2aDecision | undefined {
  for (const candidate of candidates) {
    if (!candidate) continue;
    const source = isObject(candidate.approvalDecision) ? candidate.approvalDecision : candidate;
    const decision = source.decision;
    if (decision !== 'approve' && decision !== 'deny') continue;
    const approvalId = str(source.approvalId);
    const approvalToken = str(source.approvalToken);
    if (!approvalId || !approvalToken) throw invalidParams('a decision needs approvalId and approvalToken.');
    return {
      approvalId,
      approvalToken,
      decision,
      ...(isObject(source.modifiedArguments) ? { modifiedArguments: source.modifiedArguments } : {}),
    };
  }
  return undefined;
}

/** Reads a push configuration in either dialect's shape (and the flattened one the guide shows). */
export function pushConfigOf(value: unknown): A2aPushConfigInput {
  if (!isObject(value)) throw invalidParams('a push notification configuration must be an object.');
  const inner = isObject(value.pushNotificationConfig) ? value.pushNotificationConfig : value;
  const url = str(inner.url);
  if (!url) throw invalidParams('a push notification configuration needs a url.');
  const auth = isObject(inner.authentication) ? inner.authentication : undefined;
  const scheme = auth
    ? (str(auth.scheme) ?? (Array.isArray(auth.schemes) ? str(auth.schemes[0]) : undefined))
    : undefined;
  const credentials = auth ? str(auth.credentials) : undefined;
  const token = str(inner.token);
  const id = str(inner.id);
  return {
    url,
    ...(id ? { id } : {}),
    ...(token ? { token } : {}),
    ...(scheme ? { authentication: { scheme, ...(credentials ? { credentials } : {}) } } : {}),
  };
}

/** Normalizes `message/send` / `SendMessage` params (and their streaming forms). */
export function sendParamsOf(dialect: A2aDialect, params: Json): A2aSendParams {
  const message = params.message;
  if (!isObject(message) || !Array.isArray(message.parts))
    throw invalidParams('message with an array of parts is required.');
  const { text, data } = textOf(message.parts);
  const messageMeta = isObject(message.metadata) ? message.metadata : undefined;
  const meta = isObject(params.metadata) ? params.metadata : undefined;
  const configuration = isObject(params.configuration) ? params.configuration : {};
  const blocking =
    dialect === 'legacy'
      ? configuration.blocking !== false
      : !(
          configuration.returnImmediately === true ||
          params.returnImmediately === true ||
          params.return_immediately === true
        );
  const skillId = str(meta?.skillId) ?? str(messageMeta?.skillId);
  const organizationId = str(meta?.organizationId) ?? str(messageMeta?.organizationId);
  const contextId = str(message.contextId);
  const taskId = str(message.taskId);
  const decision = decisionOf([...data, messageMeta, meta]);
  const pushSource =
    dialect === 'legacy' ? configuration.pushNotificationConfig : configuration.taskPushNotificationConfig;
  return {
    text,
    blocking,
    ...(skillId ? { skillId } : {}),
    ...(organizationId ? { organizationId } : {}),
    ...(contextId ? { contextId } : {}),
    ...(taskId ? { taskId } : {}),
    ...(decision ? { decision } : {}),
    ...(pushSource !== undefined ? { push: pushConfigOf(pushSource) } : {}),
  };
}

/** The task id of get / cancel / subscribe (`id`), or of push methods (`taskId`, legacy `id`). */
export function taskIdOf(params: Json, key: 'id' | 'taskId' = 'id'): string {
  const id = str(params[key]) ?? (key === 'taskId' ? str(params.id) : undefined);
  if (!id) throw invalidParams(`${key} is required.`);
  return id;
}

/** A page token as issued: an offset of at most nine digits (far past any page a scope can hold). */
const PAGE_TOKEN = /^\d{1,9}$/;

/** ListTasks filters. */
export function listParamsOf(params: Json): {
  contextId?: string;
  state?: ReturnType<typeof canonicalState>;
  pageSize: number;
  offset: number;
} {
  const pageSize = typeof params.pageSize === 'number' ? params.pageSize : 50;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) throw invalidParams('pageSize must be 1 to 100.');
  const token = str(params.pageToken);
  // The tokens this server issues are offsets: a bounded count of digits, nothing else (never a database error).
  if (token && !PAGE_TOKEN.test(token)) throw invalidParams('pageToken is not one this server issued.');
  const offset = token ? Number(token) : 0;
  const status = str(params.status);
  const state = status && status !== 'TASK_STATE_UNSPECIFIED' ? canonicalState(status) : undefined;
  if (status && status !== 'TASK_STATE_UNSPECIFIED' && !state) throw invalidParams('status is not a task state.');
  const contextId = str(params.contextId);
  return { pageSize, offset, ...(contextId ? { contextId } : {}), ...(state ? { state } : {}) };
}

function part(dialect: A2aDialect, text: string): Json {
  return dialect === 'legacy' ? { kind: 'text', text } : { text };
}

function dataPart(dialect: A2aDialect, data: Json): Json {
  return dialect === 'legacy' ? { kind: 'data', data } : { data };
}

/** An agent message in a dialect. */
export function agentMessage(dialect: A2aDialect, parts: Json[], ids: { contextId: string; taskId?: string }): Json {
  const base = {
    messageId: randomUUID(),
    contextId: ids.contextId,
    ...(ids.taskId ? { taskId: ids.taskId } : {}),
    parts,
  };
  return dialect === 'legacy' ? { kind: 'message', role: 'agent', ...base } : { role: 'ROLE_AGENT', ...base };
}

/** A direct reply (a blocking send whose task could not be stored). */
export function replyMessage(dialect: A2aDialect, contextId: string, text: string): Json {
  return agentMessage(dialect, [part(dialect, text)], { contextId });
}

function status(dialect: A2aDialect, task: A2aTask): Json {
  const parts: Json[] = [];
  if (task.statusText) parts.push(part(dialect, task.statusText));
  if (task.approval) parts.push(dataPart(dialect, { ...task.approval }));
  return {
    state: dialect === 'legacy' ? task.state : v1State(task.state),
    timestamp: task.updatedAt,
    ...(parts.length > 0
      ? { message: agentMessage(dialect, parts, { contextId: task.contextId, taskId: task.id }) }
      : {}),
  };
}

function artifact(dialect: A2aDialect, text: string): Json {
  return { artifactId: 'reply', name: 'reply', parts: [part(dialect, text)] };
}

/** A task in a dialect (state spelling, part shapes); completed tasks carry the reply as a text artifact. */
export function taskView(dialect: A2aDialect, task: A2aTask): Json {
  return {
    ...(dialect === 'legacy' ? { kind: 'task' } : {}),
    id: task.id,
    contextId: task.contextId,
    status: status(dialect, task),
    ...(task.artifactText !== null ? { artifacts: [artifact(dialect, task.artifactText)] } : {}),
    metadata: { skillId: task.skillId },
  };
}

/** The result of a send: 0.3 returns the task itself, 1.0 wraps it (`{ task }` / `{ message }`). */
export function sendResult(dialect: A2aDialect, payload: { task: A2aTask } | { message: Json }): Json {
  if ('task' in payload)
    return dialect === 'legacy' ? taskView(dialect, payload.task) : { task: taskView(dialect, payload.task) };
  return dialect === 'legacy' ? payload.message : { message: payload.message };
}

/** One stream frame (the `result` of an SSE event) for an update. */
export function streamFrame(dialect: A2aDialect, update: A2aTaskUpdate | { kind: 'task'; task: A2aTask }): Json {
  if (update.kind === 'task')
    return dialect === 'legacy' ? taskView(dialect, update.task) : { task: taskView(dialect, update.task) };
  if (update.kind === 'delta') {
    const event = {
      taskId: update.taskId,
      contextId: update.contextId,
      artifact: artifact(dialect, update.text),
      append: true,
      lastChunk: false,
    };
    return dialect === 'legacy' ? { kind: 'artifact-update', ...event } : { artifactUpdate: event };
  }
  const event = { taskId: update.task.id, contextId: update.task.contextId, status: status(dialect, update.task) };
  return dialect === 'legacy' ? { kind: 'status-update', ...event, final: update.final } : { statusUpdate: event };
}

/** The payload pushed to a callback: a status event with the canonical lower-case state, never the reply. */
export function pushPayload(task: A2aTask, final: boolean): Json {
  return {
    statusUpdate: {
      taskId: task.id,
      contextId: task.contextId,
      status: { state: task.state, timestamp: task.updatedAt },
      final,
    },
  };
}
