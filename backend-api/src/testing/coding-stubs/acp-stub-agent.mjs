#!/usr/bin/env node
// A scripted coding agent speaking the Agent Client Protocol on stdio through the official SDK's agent side, for
// tests and benches of coding-agent hosts. Plain JavaScript so that it starts as fast as Node does.
//
// A prompt that is a JSON object `{ "stubScript": { "turns": [[step, ...], ...] } }` installs a script in the
// session: each prompt of the session (this one first) plays the next turn, the last one repeating. A prompt that
// is not a script plays the next turn of the installed script, or says "done: <prompt>". Steps:
//   { say }                 an agent message          { sayPrompt: true }      says "prompt: <the prompt>"
//   { sayHistory: true }    says how many prompts      { sayModel: true }       says the selected model
//   { sayEnv: NAME }        says "env NAME=<value|unset>"
//   { read: path }          fs/read_text_file, says "read <path>: <text>" or "refused <path>: <message>"
//   { write: path, content } fs/write_text_file, says "wrote <path>" or "refused <path>: <message>"
//   { permission: { kind, title, locations } }  session/request_permission, says "permission <optionId|cancelled>"
//   { terminal: { command, args, cwd } }  terminal/create + wait_for_exit + output, says "terminal <exit>: <output>"
//   { ask: question }       elicitation/create, says "answer <action>"
//   { toolCall: { id, title, kind, status } }  a tool_call update
//   { spawnChild: true }    starts a long-lived child process, says "child <pid>"
//   { hang: true, ignoreCancel?: true }  waits until the turn is cancelled (or forever)
//   { stop: reason }        ends the turn with this stop reason (default end_turn)
//   { usage: { inputTokens, outputTokens } }  reported with the response
//   { exit: code }          the process exits at once
// Sessions are kept in ACP_STUB_STATE_DIR (one JSON file each) when it is set, so a new process can load or
// resume them. ACP_STUB_CAPABILITIES lists what it declares: "load", "resume" (default both), or "none".
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

const stateDir = process.env.ACP_STUB_STATE_DIR;
const capabilities = (process.env.ACP_STUB_CAPABILITIES ?? 'load,resume').split(',');
const MODELS = ['claude-opus-5', 'claude-sonnet-5', 'claude-haiku-5'];

/** @type {Map<string, { cwd: string, script: any[][] | null, prompts: string[], said: string[], model: string }>} */
const sessions = new Map();
/** @type {Map<string, () => void>} */
const cancels = new Map();

function sessionFile(id) {
  return stateDir ? path.join(stateDir, `${id.replace(/[^\w-]/g, '_')}.json`) : undefined;
}

function save(id) {
  const file = sessionFile(id);
  if (!file) return;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(sessions.get(id)));
}

function restore(id) {
  if (sessions.has(id)) return sessions.get(id);
  const file = sessionFile(id);
  if (!file || !existsSync(file)) throw acp.RequestError.sessionNotFound(id);
  const session = JSON.parse(readFileSync(file, 'utf8'));
  sessions.set(id, session);
  return session;
}

function modelOption(session) {
  return [
    {
      id: 'model',
      name: 'Model',
      category: 'model',
      type: 'select',
      currentValue: session.model,
      options: [{ value: 'stub-default', name: 'Default' }, ...MODELS.map((value) => ({ value, name: value }))],
    },
  ];
}

function scriptOf(text) {
  try {
    const parsed = JSON.parse(text);
    return parsed && typeof parsed === 'object' && parsed.stubScript ? parsed.stubScript.turns : null;
  } catch {
    return null;
  }
}

const failure = (error) => (error instanceof Error ? error.message : String(error));

/** Plays one turn's steps; returns the stop reason and usage. */
async function play(ctx, sessionId, session, steps, prompt, cancelled) {
  const say = (text) => {
    session.said.push(text);
    return ctx.client.notify(acp.methods.client.session.update, {
      sessionId,
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
    });
  };
  let stopReason = 'end_turn';
  let usage;
  for (const step of steps) {
    if (cancelled.done) return { stopReason: 'cancelled' };
    if (step.say !== undefined) await say(step.say);
    else if (step.sayPrompt) await say(`prompt: ${prompt}`);
    else if (step.sayHistory) await say(`prompts in session: ${session.prompts.length}`);
    else if (step.sayModel) await say(`model: ${session.model}`);
    else if (step.sayEnv) await say(`env ${step.sayEnv}=${process.env[step.sayEnv] ?? 'unset'}`);
    else if (step.read !== undefined) {
      const answer = await ctx.client.request(acp.methods.client.fs.readTextFile, { sessionId, path: step.read }).then(
        (r) => `read ${step.read}: ${r.content}`,
        (e) => `refused ${step.read}: ${failure(e)}`,
      );
      await say(answer);
    } else if (step.write !== undefined) {
      const answer = await ctx.client
        .request(acp.methods.client.fs.writeTextFile, { sessionId, path: step.write, content: step.content ?? '' })
        .then(
          () => `wrote ${step.write}`,
          (e) => `refused ${step.write}: ${failure(e)}`,
        );
      await say(answer);
    } else if (step.permission) {
      const toolCallId = randomUUID();
      const { kind, title = 'tool', locations = [] } = step.permission;
      const response = await ctx.client.request(acp.methods.client.session.requestPermission, {
        sessionId,
        toolCall: { toolCallId, title, ...(kind ? { kind } : {}), locations: locations.map((p) => ({ path: p })) },
        options: step.permission.options ?? [
          { optionId: 'allow-always', name: 'Always allow', kind: 'allow_always' },
          { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
          { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
        ],
      });
      const outcome = response.outcome;
      await say(`permission ${outcome.outcome === 'selected' ? outcome.optionId : 'cancelled'}`);
    } else if (step.terminal) {
      const answer = await runTerminal(ctx, sessionId, step.terminal).catch((e) => `refused terminal: ${failure(e)}`);
      await say(answer);
    } else if (step.ask !== undefined) {
      const response = await ctx.client.request(acp.methods.client.elicitation.create, {
        sessionId,
        mode: 'form',
        message: step.ask,
        requestedSchema: { type: 'object', properties: { answer: { type: 'string' } } },
      });
      await say(`answer ${response.action}`);
    } else if (step.toolCall) {
      await ctx.client.notify(acp.methods.client.session.update, {
        sessionId,
        update: {
          sessionUpdate: 'tool_call',
          toolCallId: step.toolCall.id,
          title: step.toolCall.title,
          kind: step.toolCall.kind,
          status: step.toolCall.status ?? 'completed',
        },
      });
    } else if (step.spawnChild) {
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
      await say(`child ${child.pid}`);
    } else if (step.hang) {
      await new Promise((resolve) => {
        if (!step.ignoreCancel) cancelled.wake = resolve;
      });
    } else if (step.stop) stopReason = step.stop;
    else if (step.usage) usage = { ...step.usage, totalTokens: step.usage.inputTokens + step.usage.outputTokens };
    else if (step.exit !== undefined) process.exit(step.exit);
  }
  if (cancelled.done) return { stopReason: 'cancelled' };
  return { stopReason, ...(usage ? { usage } : {}) };
}

async function runTerminal(ctx, sessionId, { command, args = [], cwd }) {
  const terminal = await ctx.client.createTerminal({ sessionId, command, args, ...(cwd ? { cwd } : {}) });
  try {
    const exit = await terminal.waitForExit();
    const { output } = await terminal.currentOutput();
    return `terminal ${exit.exitCode ?? exit.signal}: ${output.trim()}`;
  } finally {
    await terminal.release();
  }
}

const app = acp
  .agent({ name: 'acp-stub-agent' })
  .onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentInfo: { name: 'acp-stub-agent', version: '1.0.0' },
    agentCapabilities: {
      loadSession: capabilities.includes('load'),
      ...(capabilities.includes('resume') ? { sessionCapabilities: { resume: {} } } : {}),
    },
  }))
  .onRequest(acp.methods.agent.session.new, ({ params }) => {
    const sessionId = `stub-${randomUUID()}`;
    const session = { cwd: params.cwd, script: null, prompts: [], said: [], model: 'stub-default' };
    sessions.set(sessionId, session);
    save(sessionId);
    return { sessionId, configOptions: modelOption(session) };
  })
  .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
    const session = restore(params.sessionId);
    // Loading replays the conversation so a client can show it.
    for (const text of session.prompts) {
      await client.notify(acp.methods.client.session.update, {
        sessionId: params.sessionId,
        update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text } },
      });
    }
    return { configOptions: modelOption(session) };
  })
  .onRequest(acp.methods.agent.session.resume, ({ params }) => ({
    configOptions: modelOption(restore(params.sessionId)),
  }))
  .onRequest(acp.methods.agent.session.setConfigOption, ({ params }) => {
    const session = restore(params.sessionId);
    session.model = String(params.value);
    save(params.sessionId);
    return { configOptions: modelOption(session) };
  })
  .onRequest(acp.methods.agent.session.prompt, async (ctx) => {
    const { sessionId } = ctx.params;
    const session = restore(sessionId);
    const prompt = ctx.params.prompt.map((block) => (block.type === 'text' ? block.text : '')).join('');
    const script = scriptOf(prompt);
    if (script) session.script = script;
    session.prompts.push(prompt);
    const turn = session.prompts.length - 1;
    const steps = session.script
      ? session.script[Math.min(turn, session.script.length - 1)]
      : [{ say: `done: ${prompt}` }];
    /** @type {{ done: boolean, wake?: () => void }} */
    const cancelled = { done: false };
    cancels.set(sessionId, () => {
      cancelled.done = true;
      cancelled.wake?.();
    });
    try {
      return await play(ctx, sessionId, session, steps, prompt, cancelled);
    } finally {
      cancels.delete(sessionId);
      save(sessionId);
    }
  })
  .onNotification(acp.methods.agent.session.cancel, ({ params }) => cancels.get(params.sessionId)?.());

const connection = app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
await connection.closed;
process.exit(0);
