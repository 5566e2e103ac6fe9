// A short MCP session with a tool program, driven by the official TypeScript client, for the README:
//   node tests/mcp/node/session.mjs PROGRAM
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const program = process.argv[2];
const client = new Client({ name: 'readme', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
await client.connect(new StdioClientTransport({ command: program, args: ['mcp'] }));
console.log(`connected: ${client.getServerVersion().name}, protocol ${client.getNegotiatedProtocolVersion()}`);
const { tools } = await client.listTools();
console.log(`tools: ${tools.map((t) => t.name).join(', ')}`);
for (const call of [
  { name: 'suggest_priority', arguments: { title: 'Crash when saving' } },
  { name: 'search_issues', arguments: { query: 'crash', limit: '5' } },
  { name: 'create_issue', arguments: { priority: 'soon' } },
]) {
  const result = await client.callTool(call);
  console.log(`\n> ${call.name} ${JSON.stringify(call.arguments)}  isError=${result.isError}`);
  console.log(result.content.map((c) => c.text).join('\n'));
}
await client.close();
