// The TypeScript peer of the MCP benchmark: the official SDK's McpServer serving search_orders with a
// zod schema of the same parameters and result as bench/include/bench/orders.hpp, answering as
// bench/orders_impl.cpp does (no orders). Both transports use the SDK's defaults, as ptc does: calls
// over HTTP are answered on an SSE stream, and each 2025 session has its own transport.
//   node server.mjs stdio
//   node server.mjs http PORT
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
  return mcp;
}

const [mode, port] = process.argv.slice(2);
if (mode === 'stdio') {
  await server().connect(new StdioServerTransport());
} else if (mode === 'http') {
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
  listener.listen(Number(port), '127.0.0.1', () => console.error(`ts-bench: serving http://127.0.0.1:${port}/mcp`));
} else {
  console.error('usage: node server.mjs stdio | http PORT');
  process.exit(2);
}
