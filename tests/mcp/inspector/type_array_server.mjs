// A stdio MCP server with one tool whose optional parameter has a type array, the form the Inspector's
// strict check warns on: strict.test.mjs runs the check on it too, so a check that stopped finding
// anything would fail rather than pass quietly.
import { createInterface } from 'node:readline';

const tool = {
  name: 'search',
  description: 'Searches.',
  inputSchema: {
    type: 'object',
    properties: { query: { type: 'string' }, limit: { type: ['integer', 'null'] } },
    required: ['query'],
    additionalProperties: false,
  },
};

const reply = (id, result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\n');

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  if (message.method === 'initialize')
    reply(message.id, {
      protocolVersion: message.params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: 'type-array', version: '1.0.0' },
    });
  else if (message.method === 'tools/list') reply(message.id, { tools: [tool] });
  else process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }) + '\n');
});
