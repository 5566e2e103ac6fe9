// The TypeScript peer of the MCP benchmark: the official SDK's McpServer serving the tools of
// mcp_bench_server with zod schemas of the same parameters and results: search_orders
// (bench/include/bench/orders.hpp, answering as bench/orders_impl.cpp does: no orders) and
// suggest_priority (bench/include/bench/priority.hpp, deciding as bench/priority_impl.cpp does). Each
// answers in the shape ptc's server does: the result as JSON text and as structuredContent.result. Over
// HTTP each 2025 session has its own transport; `http-sse` is the SDK's default (calls answered on an
// SSE stream, as ptc does), `http-json` sets enableJsonResponse (one JSON body per call).
//   node server.mjs stdio
//   node server.mjs http-sse PORT        (`http` is the same)
//   node server.mjs http-json PORT
import { randomUUID } from 'node:crypto';
import http from 'node:http';

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const status = z.enum(['pending', 'paid', 'shipped', 'cancelled']);
const address = z.object({ street: z.string(), city: z.string(), country: z.string() });
const lineItem = z.object({ sku: z.string(), quantity: z.number().int(), unit_price: z.number() });
const order = z.object({
  id: z.number().int(), customer_email: z.string(), status, items: z.array(lineItem), ship_to: address,
  note: z.string().nullable().optional(), total: z.number(),
});

const priority = z.enum(['low', 'medium', 'high', 'urgent']);
// As bench/priority_impl.cpp: each test lower-cases the title again, as the quickstart's does.
const contains = (haystack, needle) => haystack.toLowerCase().includes(needle.toLowerCase());
function suggestPriority(title) {
  if (contains(title, 'crash') || contains(title, 'data loss')) return 'urgent';
  if (contains(title, 'typo') || contains(title, 'cosmetic')) return 'low';
  if (contains(title, 'slow') || contains(title, 'broken')) return 'high';
  return 'medium';
}

function server() {
  const mcp = new McpServer({ name: 'ts-bench', version: '1.0.0' });
  mcp.registerTool('search_orders', {
    description: 'Finds orders matching a filter.',
    inputSchema: {
      customer_email: z.string(), status, tags: z.array(z.string()), min_total: z.number().nullable().optional(),
      limit: z.number().int(), include_cancelled: z.boolean(), ship_to: address, items: z.array(lineItem),
    },
    outputSchema: { result: z.array(order) },
  }, async () => {
    const result = [];
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: { result } };
  });
  mcp.registerTool('suggest_priority', {
    title: 'Suggest a priority',
    description: 'Guesses a priority from a title: "crash" and "data loss" are urgent, "typo" is low.',
    inputSchema: { title: z.string() },
    outputSchema: { result: priority },
    annotations: { title: 'Suggest a priority', readOnlyHint: true, destructiveHint: false, idempotentHint: true,
                   openWorldHint: false },
  }, async ({ title }) => {
    const result = suggestPriority(title);
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: { result } };
  });
  return mcp;
}

const [mode, port] = process.argv.slice(2);
if (mode === 'stdio') {
  await server().connect(new StdioServerTransport());
} else if (mode === 'http' || mode === 'http-sse' || mode === 'http-json') {
  const enableJsonResponse = mode === 'http-json';
  const transports = new Map();
  const readBody = (req) => new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
  const listener = http.createServer(async (req, res) => {
    const body = req.method === 'POST' ? JSON.parse(await readBody(req)) : undefined;
    const id = req.headers['mcp-session-id'];
    let transport = id && transports.get(id);
    if (!transport && body && isInitializeRequest(body)) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse,
        onsessioninitialized: (sid) => transports.set(sid, transport),
      });
      await server().connect(transport);
    }
    if (!transport) {
      res.writeHead(400).end();
      return;
    }
    await transport.handleRequest(req, res, body);
  });
  listener.listen(Number(port), '127.0.0.1', () => console.error(`ts-bench: serving http://127.0.0.1:${port}/mcp (${mode})`));
} else {
  console.error('usage: node server.mjs stdio | http-sse PORT | http-json PORT');
  process.exit(2);
}
