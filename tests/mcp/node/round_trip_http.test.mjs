// 2026-07-28 multi round-trip requests on the wire, as the conformance suite sends them: raw POSTs with
// the Mcp-* headers against the fixture (with its asking tools). The requestState the server hands out
// is sealed (a tampered or made-up one is refused) and bound to its request: it cannot be replayed on
// another tool, with other arguments, or on another method. And the era's error codes as they travel.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { fixture, startHttp } from './clients.mjs';

assert.ok(fixture, 'PTC_MCP_FIXTURE must name the fixture server binary');
process.env.PTC_FIXTURE_CLIENT_TOOLS = '1';

const timeout = 15000;

const meta = (capabilities) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});

let nextId = 1;

/// POSTs one 2026-07-28 request with the headers that mirror it: { status, message }, the message the
/// single JSON response or the SSE stream carried.
async function post(url, method, params) {
  const headers = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': method,
  };
  // The requests that name what they act on mirror the name (a resource's URI) in Mcp-Name.
  if (method === 'tools/call' || method === 'prompts/get') headers['Mcp-Name'] = params.name;
  if (method === 'resources/read') headers['Mcp-Name'] = params.uri;
  const id = nextId++;
  const response = await fetch(url, {
    method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    signal: AbortSignal.timeout(10000),
  });
  const body = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const messages = type.startsWith('text/event-stream')
    ? body.split('\n').filter((l) => l.startsWith('data:')).map((l) => JSON.parse(l.slice(5)))
    : [JSON.parse(body)];
  const message = messages.find((m) => m.id === id);
  assert.ok(message, `no response with id ${id} in: ${body}`);
  return { status: response.status, message };
}

/// The first round of `name`: its input_required result, which must carry a requestState.
async function firstRound(url, name, args, capabilities) {
  const { status, message } = await post(url, 'tools/call', { name, arguments: args, _meta: meta(capabilities) });
  assert.equal(status, 200);
  assert.equal(message.result?.resultType, 'input_required', JSON.stringify(message));
  assert.equal(typeof message.result.requestState, 'string');
  return message.result;
}

/// `state` with one character in its middle changed (to another base64url character).
function tamper(state) {
  const i = Math.floor(state.length / 2);
  return state.slice(0, i) + (state[i] === 'A' ? 'B' : 'A') + state.slice(i + 1);
}

const accept = { action: 'accept', content: { name: 'Ada', guests: 3, meal: 'fish', window: true } };
const elicitation = { elicitation: {} };

describe('2026-07-28 round trips over raw HTTP', () => {
  let server = null;
  before(async () => {
    server = await startHttp(fixture);
  }, { timeout });
  after(async () => {
    if (server) assert.equal(await server.stop(), 0, 'the HTTP server exits 0 on SIGTERM');
  }, { timeout });

  test('input_required names the question; the retry with the answer and the state completes', { timeout },
    async () => {
      const round = await firstRound(server.url, 'book', { restaurant: 'A' }, elicitation);
      assert.deepEqual(round.inputRequests, {
        'elicit-1': {
          method: 'elicitation/create',
          params: {
            message: 'Book a table at A?',
            requestedSchema: {
              type: 'object',
              properties: {
                guests: { type: 'integer', minimum: 1, maximum: 12 },
                meal: { type: 'string', enum: ['vegan', 'fish', 'meat'] },
                name: { type: 'string', description: 'Who the table is for.' },
                window: { type: 'boolean' },
              },
              required: ['name', 'guests', 'meal', 'window'],
            },
          },
        },
      });
      const { status, message } = await post(server.url, 'tools/call', {
        name: 'book', arguments: { restaurant: 'A' }, _meta: meta(elicitation),
        inputResponses: { 'elicit-1': accept }, requestState: round.requestState,
      });
      assert.equal(status, 200);
      assert.equal(message.result.resultType, 'complete');
      assert.equal(message.result.isError, false);
      assert.equal(message.result.structuredContent, 'Booked 3 for Ada, fish, by the window.');
    });

  test('a tampered or made-up requestState is refused with -32602', { timeout }, async () => {
    const round = await firstRound(server.url, 'book', { restaurant: 'A' }, elicitation);
    const retry = (requestState) => post(server.url, 'tools/call', {
      name: 'book', arguments: { restaurant: 'A' }, _meta: meta(elicitation),
      inputResponses: { 'elicit-1': accept }, requestState,
    });
    const tampered = await retry(tamper(round.requestState));
    assert.equal(tampered.status, 400);
    assert.deepEqual(tampered.message.error, {
      code: -32602, message: 'Invalid params: requestState: request state tampered with',
    });
    const madeUp = await retry('bm90IGEgc3RhdGU');
    assert.equal(madeUp.status, 400);
    assert.deepEqual(madeUp.message.error, { code: -32602, message: 'Invalid params: requestState: request state malformed' });
    const notText = await retry(42);
    assert.deepEqual(notText.message.error, { code: -32602, message: 'Invalid params: requestState must be a string' });
  });

  test('a state cannot be replayed on another tool, even with the same arguments', { timeout }, async () => {
    const capabilities = { elicitation: {}, sampling: {}, roots: {} };
    const round = await firstRound(server.url, 'list_roots', {}, capabilities);
    assert.deepEqual(round.inputRequests, { 'roots-1': { method: 'roots/list', params: {} } });
    const { status, message } = await post(server.url, 'tools/call', {
      name: 'survey', arguments: {}, _meta: meta(capabilities), requestState: round.requestState,
      inputResponses: { 'roots-1': { roots: [] } },
    });
    assert.equal(status, 400);
    assert.deepEqual(message.error, { code: -32602, message: 'Invalid params: requestState: it belongs to another request' });
    // The state does its job on the call it came from.
    const own = await post(server.url, 'tools/call', {
      name: 'list_roots', arguments: {}, _meta: meta(capabilities), requestState: round.requestState,
      inputResponses: { 'roots-1': { roots: [{ uri: 'file:///r', name: 'R' }] } },
    });
    assert.deepEqual(own.message.result.structuredContent, [{ uri: 'file:///r', name: 'R' }]);
  });

  test('a state cannot be replayed with other arguments, nor on another method', { timeout }, async () => {
    const round = await firstRound(server.url, 'book', { restaurant: 'A' }, elicitation);
    const refused = { code: -32602, message: 'Invalid params: requestState: it belongs to another request' };
    const other = await post(server.url, 'tools/call', {
      name: 'book', arguments: { restaurant: 'B' }, _meta: meta(elicitation),
      inputResponses: { 'elicit-1': accept }, requestState: round.requestState,
    });
    assert.equal(other.status, 400);
    assert.deepEqual(other.message.error, refused);
    const read = await post(server.url, 'resources/read', {
      uri: 'fixture://greeting', _meta: meta(elicitation), requestState: round.requestState,
    });
    assert.equal(read.status, 400);
    assert.deepEqual(read.message.error, refused);
    const prompt = await post(server.url, 'prompts/get', {
      name: 'caption', _meta: meta(elicitation), requestState: round.requestState,
    });
    assert.deepEqual(prompt.message.error, refused);
  });

  test('an answer that is not an object is refused', { timeout }, async () => {
    const round = await firstRound(server.url, 'book', { restaurant: 'A' }, elicitation);
    const { status, message } = await post(server.url, 'tools/call', {
      name: 'book', arguments: { restaurant: 'A' }, _meta: meta(elicitation),
      inputResponses: { 'elicit-1': 'accept' }, requestState: round.requestState,
    });
    assert.equal(status, 400);
    assert.deepEqual(message.error, {
      code: -32602,
      message: 'Invalid params: inputResponses["elicit-1"] must be an object (the result of the request it answers)',
    });
  });

  test('the era\'s codes on the wire: a missing resource, a missing capability', { timeout }, async () => {
    const missing = await post(server.url, 'resources/read', { uri: 'fixture://nothing', _meta: meta({}) });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.message.error, {
      code: -32602, message: 'Resource not found: fixture://nothing', data: { uri: 'fixture://nothing' },
    });
    const refused = await post(server.url, 'tools/call', { name: 'needs_sampling', arguments: { question: 'Hi?' }, _meta: meta({}) });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.message.error, {
      code: -32021,
      message: "Missing required client capability: sampling (tool 'needs_sampling')",
      data: { requiredCapabilities: { sampling: {} } },
    });
    // A client without the capability that the tool only asks for gets an error result, not a question.
    const asked = await post(server.url, 'tools/call', { name: 'book', arguments: { restaurant: 'A' }, _meta: meta({}) });
    assert.equal(asked.status, 200);
    assert.equal(asked.message.result.resultType, 'complete');
    assert.equal(asked.message.result.isError, true);
    assert.deepEqual(asked.message.result.content, [{
      type: 'text', text: "The client cannot answer elicitation/create: it did not declare the 'elicitation' capability.",
    }]);
  });
});
