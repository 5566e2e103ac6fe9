// Tools that ask the client that called them (the fixture's, with PTC_FIXTURE_CLIENT_TOOLS=1):
// elicitation of a typed value, sampling, roots, all three at once, and tools that cannot run without a
// capability, from every client configuration over stdio and over HTTP. Up to 2025-11-25 the server
// sends its questions as JSON-RPC requests on the call's stream; 2026-07-28 answers `input_required`
// and client 2 retries with the answers (multi round-trip), through the same handlers. A client that
// did not declare a capability gets an error result, or -32021 where the tool requires it.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';

import { callWithOptions, configurations, fixture, negotiated, startHttp } from './clients.mjs';

assert.ok(fixture, 'PTC_MCP_FIXTURE must name the fixture server binary');
// The fixture registers the asking tools only with this; HTTP servers inherit it, stdio ones get it below.
process.env.PTC_FIXTURE_CLIENT_TOOLS = '1';

const timeout = 15000;  // a question nobody answers must fail the test, not hang it
const modern = (configuration) => configuration.version === '2026-07-28';
// Up to 2025-11-25 structured content is an object, so a result that is not one travels as {result}.
const structured = (configuration, value) => (modern(configuration) ? value : { result: value });
const text = (result) => result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');

/// What the booking tool asks for: fixture::Booking's schema, as MCP's restricted elicitation schema.
const bookingSchema = {
  type: 'object',
  properties: {
    guests: { type: 'integer', minimum: 1, maximum: 12 },
    meal: { type: 'string', enum: ['vegan', 'fish', 'meat'] },
    name: { type: 'string', description: 'Who the table is for.' },
    window: { type: 'boolean' },
  },
  required: ['name', 'guests', 'meal', 'window'],
};

/// The client's side: the answers its handlers give (tests replace them), and every question it saw.
function script() {
  return {
    seen: [],
    elicit: () => ({ action: 'accept', content: { name: 'Ada', guests: 3, meal: 'fish', window: true } }),
    sample: () => ({ model: 'test-model', role: 'assistant', content: { type: 'text', text: 'Paris' }, stopReason: 'endTurn' }),
    roots: () => ({ roots: [{ uri: 'file:///work/a', name: 'A' }, { uri: 'file:///work/b', name: 'B' }] }),
  };
}

/// A connected client of `configuration`; with `asking`, it declares elicitation, sampling and roots
/// and answers them from `answers` (a script()). `server` is { binary } for stdio or { url } for HTTP.
async function connect(configuration, server, answers) {
  const info = { name: 'ptc-test', version: '0.0.1' };
  const capabilities = answers ? { elicitation: {}, sampling: {}, roots: {} } : {};
  const handle = (kind) => async (request) => {
    answers.seen.push({ method: request.method, params: request.params });
    return answers[kind](request.params);
  };
  const stdio = { command: server.binary, args: ['mcp'], env: { ...process.env }, stderr: 'pipe' };
  let client, transport;
  if (configuration.v1) {
    client = new ClientV1(info, { capabilities });
    if (answers) {
      client.setRequestHandler(ElicitRequestSchema, handle('elicit'));
      client.setRequestHandler(CreateMessageRequestSchema, handle('sample'));
      client.setRequestHandler(ListRootsRequestSchema, handle('roots'));
    }
    transport = server.url ? new HttpV1(new URL(server.url)) : new StdioV1(stdio);
  } else {
    client = new ClientV2(info, { capabilities, versionNegotiation: configuration.negotiation });
    if (answers) {
      client.setRequestHandler('elicitation/create', handle('elicit'));
      client.setRequestHandler('sampling/createMessage', handle('sample'));
      client.setRequestHandler('roots/list', handle('roots'));
    }
    transport = server.url ? new HttpV2(new URL(server.url)) : new StdioV2(stdio);
  }
  await client.connect(transport);
  return client;
}

/// For a describe block: the fixture (over `transportName`) and a client connected to it.
function serve(configuration, transportName, answers) {
  const served = { client: null, http: null };
  before(async () => {
    served.http = transportName === 'http' ? await startHttp(fixture) : null;
    served.client = await connect(configuration, served.http ? { url: served.http.url } : { binary: fixture }, answers);
  }, { timeout });
  after(async () => {
    await served.client?.close();
    if (served.http) assert.equal(await served.http.stop(), 0, 'the HTTP server exits 0 on SIGTERM');
  }, { timeout });
  return served;
}

/// Calls a tool and counts the multi round-trip rounds client 2 went through (it reports each as
/// progress): none up to 2025-11-25, whose questions travel as requests on the call's stream.
async function callCountingRounds(client, params) {
  const rounds = [];
  const result = await callWithOptions(client, params, {
    onprogress: (p) => {
      if (/^Fulfilling input required by 'tools\/call'/.test(p.message ?? '')) rounds.push(p.message);
    },
  });
  return { result, rounds: rounds.length };
}

/// The error `promise` rejects with; SDK 1 prefixes the server's message with "MCP error CODE: ".
async function assertRejects(configuration, promise, { code, message, data }) {
  let error = null;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  assert.ok(error, 'the call must be refused');
  assert.equal(error.code, code, error.stack);
  assert.equal(error.message, configuration.v1 ? `MCP error ${code}: ${message}` : message);
  assert.deepEqual(error.data, data);
}

describe('tools that ask the client', { concurrency: 4 }, () => {
  for (const transportName of ['stdio', 'http']) {
    for (const configuration of configurations) {
      // One test at a time: each sets the answers its client gives.
      describe(`${configuration.name} over ${transportName}, declaring elicitation, sampling and roots`,
        { concurrency: 1 }, () => {
        const answers = script();
        const served = serve(configuration, transportName, answers);
        beforeEach(() => Object.assign(answers, script()));
        const ask = async (name, args) => {
          answers.seen.length = 0;
          return callCountingRounds(served.client, { name, arguments: args });
        };

        test('elicits a typed value: the struct\'s schema is asked, the answer decoded', { timeout }, async () => {
          assert.equal(negotiated(served.client), configuration.version);
          const { result, rounds } = await ask('book', { restaurant: 'Chez Nous' });
          assert.equal(result.isError, false, text(result));
          assert.deepEqual(result.structuredContent, structured(configuration, 'Booked 3 for Ada, fish, by the window.'));
          assert.deepEqual(answers.seen, [{
            method: 'elicitation/create',
            params: { message: 'Book a table at Chez Nous?', requestedSchema: bookingSchema },
          }]);
          assert.equal(rounds, modern(configuration) ? 1 : 0);
        });

        test('an answer is coerced as arguments are: a number sent as a string', { timeout }, async () => {
          answers.elicit = () => ({ action: 'accept', content: { name: 'Bo', guests: '4', meal: 'vegan', window: false } });
          const { result } = await ask('book', { restaurant: 'Chez Nous' });
          assert.deepEqual(result.structuredContent, structured(configuration, 'Booked 4 for Bo, vegan, not by the window.'));
        });

        test('an accepted answer that does not match the schema is an error result with the report', { timeout },
          async () => {
            answers.elicit = () => ({ action: 'accept', content: { name: 'Cy', guests: 40, meal: 'soup', window: true } });
            const { result } = await ask('book', { restaurant: 'Chez Nous' });
            assert.equal(result.isError, true);
            // The errors alone: no heading written for a tool's arguments, no final newline.
            assert.equal(text(result), 'The user\'s answer does not match what was asked:\n' +
              '- guests: expected value <= 12, got 40\n- meal: expected one of ["vegan", "fish", "meat"], got "soup"');
          });

        test('a declined or cancelled elicitation reaches the handler as such', { timeout }, async () => {
          for (const action of ['decline', 'cancel']) {
            answers.elicit = () => ({ action });
            const { result } = await ask('book', { restaurant: 'Chez Nous' });
            assert.equal(result.isError, false, text(result));
            assert.deepEqual(result.structuredContent, structured(configuration, `No booking: the user chose ${action}.`));
            assert.equal(answers.seen.length, 1);
          }
        });

        test('concurrent calls each get the answer to their own question', { timeout }, async () => {
          answers.elicit = (params) => {
            const restaurant = /^Book a table at (.*)\?$/.exec(params.message)[1];
            return { action: 'accept', content: { name: `guest of ${restaurant}`, guests: 2, meal: 'meat', window: true } };
          };
          answers.seen.length = 0;
          const calls = Array.from({ length: 6 }, (_, i) =>
            served.client.callTool({ name: 'book', arguments: { restaurant: `R${i}` } }));
          const results = await Promise.all(calls);
          results.forEach((r, i) => assert.deepEqual(r.structuredContent,
            structured(configuration, `Booked 2 for guest of R${i}, meat, by the window.`)));
          assert.equal(answers.seen.length, 6);
        });

        test('samples the client\'s model with the request\'s settings', { timeout }, async () => {
          const { result, rounds } = await ask('ask_model', { question: 'Capital of France?' });
          assert.equal(result.isError, false, text(result));
          assert.deepEqual(result.structuredContent, { text: 'Paris', model: 'test-model', role: 'assistant', stop: 'endTurn' });
          assert.deepEqual(answers.seen, [{
            method: 'sampling/createMessage',
            params: {
              messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }],
              systemPrompt: 'Answer in one word.', temperature: 0.25, maxTokens: 20, stopSequences: ['\n'],
            },
          }]);
          assert.equal(rounds, modern(configuration) ? 1 : 0);
        });

        test('a client whose handler fails: an error result (2025), a failed call (2026)', { timeout }, async () => {
          answers.sample = () => {
            throw new Error('the model is busy');
          };
          if (modern(configuration)) {
            // Client 2 runs the handler itself between two rounds; its failure never reaches the server.
            await assert.rejects(ask('ask_model', { question: 'Capital?' }), /the model is busy/);
            return;
          }
          const { result } = await ask('ask_model', { question: 'Capital?' });
          assert.equal(result.isError, true);
          assert.equal(text(result), 'The client answered with an error: the model is busy');
        });

        test('an agent run over the client\'s model: one sampling request per turn, typed', { timeout }, async () => {
          // The first answer is not the JSON asked for: the agent asks again, as with any provider.
          const replies = ['Not JSON.', '{"line":"Saving loses edits."}'];
          answers.sample = () => ({ model: 'test-model', role: 'assistant', content: { type: 'text', text: replies.shift() }, stopReason: 'endTurn' });
          const { result, rounds } = await ask('agent_summary', { text: 'Saving a file loses the last edit.' });
          assert.equal(result.isError, false, text(result));
          assert.deepEqual(result.structuredContent, { line: 'Saving loses edits.', requests: 2 });
          assert.equal(answers.seen.length, 2);
          assert.deepEqual(answers.seen.map((s) => s.method), ['sampling/createMessage', 'sampling/createMessage']);
          const first = answers.seen[0].params;
          assert.equal(first.messages.length, 1);
          assert.equal(first.messages[0].role, 'user');
          assert.match(first.messages[0].content.text, /^Summarize: Saving a file loses the last edit\.\n/);
          assert.match(first.systemPrompt, /Answer with JSON only/);
          // The retry carries the whole conversation: the task, the answer that failed, and what was wrong.
          assert.equal(answers.seen[1].params.messages.length, 3);
          assert.equal(rounds, modern(configuration) ? 2 : 0);
        });

        test('lists the client\'s roots', { timeout }, async () => {
          const { result, rounds } = await ask('list_roots', {});
          assert.equal(result.isError, false, text(result));
          assert.deepEqual(result.structuredContent, structured(configuration, [
            { uri: 'file:///work/a', name: 'A' }, { uri: 'file:///work/b', name: 'B' },
          ]));
          assert.deepEqual(answers.seen, [{ method: 'roots/list', params: {} }]);
          assert.equal(rounds, modern(configuration) ? 1 : 0);
        });

        test('asks three things at once (one round under 2026-07-28)', { timeout }, async () => {
          answers.elicit = () => ({ action: 'accept', content: { name: 'Di' } });
          const { result, rounds } = await ask('survey', {});
          assert.equal(result.isError, false, text(result));
          assert.deepEqual(result.structuredContent, { name: 'Di', poem: 'Paris', roots: 2 });
          assert.deepEqual(answers.seen.map((s) => s.method).sort(), ['elicitation/create', 'roots/list', 'sampling/createMessage']);
          assert.equal(rounds, modern(configuration) ? 1 : 0);
        });

        test('a tool that needs sampling runs for a client that declared it', { timeout }, async () => {
          const { result } = await ask('needs_sampling', { question: 'Hi?' });
          assert.deepEqual(result.structuredContent, structured(configuration, 'The model said: Paris'));
          const workspace = await ask('workspace', {});
          assert.deepEqual(workspace.result.structuredContent, structured(configuration, 2));
        });
      });

      describe(`${configuration.name} over ${transportName}, declaring nothing`, { concurrency: 1 }, () => {
        const served = serve(configuration, transportName, null);

        test('a tool that asks gets an error naming the capability, and the call an error result', { timeout },
          async () => {
            for (const [name, args, method, capability] of [
              ['book', { restaurant: 'Chez Nous' }, 'elicitation/create', 'elicitation'],
              ['ask_model', { question: 'Capital?' }, 'sampling/createMessage', 'sampling'],
              ['list_roots', {}, 'roots/list', 'roots'],
              ['survey', {}, 'elicitation/create', 'elicitation'],  // the first question it cannot ask
            ]) {
              const result = await served.client.callTool({ name, arguments: args });
              assert.equal(result.isError, true, name);
              assert.equal(text(result),
                `The client cannot answer ${method}: it did not declare the '${capability}' capability.`);
            }
          });

        test('a tool that requires sampling is refused with -32021 before it runs', { timeout }, async () => {
          await assertRejects(configuration, served.client.callTool({ name: 'needs_sampling', arguments: { question: 'Hi?' } }), {
            code: -32021,
            message: "Missing required client capability: sampling (tool 'needs_sampling')",
            data: { requiredCapabilities: { sampling: {} } },
          });
        });

        test('require_client: an error result up to 2025-11-25, -32021 in 2026-07-28', { timeout }, async () => {
          const call = served.client.callTool({ name: 'workspace', arguments: {} });
          if (modern(configuration)) {
            await assertRejects(configuration, call, {
              code: -32021,
              message: 'Missing required client capability: roots',
              data: { requiredCapabilities: { roots: {} } },
            });
            return;
          }
          const result = await call;
          assert.equal(result.isError, true);
          assert.equal(text(result), "The client did not declare the 'roots' capability this tool needs.");
        });
      });
    }
  }
});
