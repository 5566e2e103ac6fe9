// A short MCP session with a tool program, driven by the official TypeScript client, for the README:
//   node tests/mcp/node/session.mjs PROGRAM
// It answers the server's questions as a host would: the user confirms, the model answers.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const program = process.argv[2];
const client = new Client({ name: 'readme', version: '1.0.0' },
  { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: {}, sampling: {} } });
client.setRequestHandler('elicitation/create', async (request) => {
  console.log(`  (the user is asked: ${request.params.message} and confirms)`);
  return { action: 'accept', content: { confirm: true } };
});
client.setRequestHandler('sampling/createMessage', async () => {
  console.log('  (the client\'s model is asked for a summary)');
  return { role: 'assistant', model: 'host-model', content: { type: 'text', text: 'Saving an empty file crashes the editor.' } };
});
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

const { resourceTemplates } = await client.listResourceTemplates();
console.log(`\nresource templates: ${resourceTemplates.map((t) => t.uriTemplate).join(', ')}`);
for (const uri of ['tracker://issues/PTC-1', 'tracker://labels']) {
  const { contents } = await client.readResource({ uri });
  console.log(`> read ${uri}  (${contents[0].mimeType})\n${contents[0].text}`);
}
const completion = await client.complete({ ref: { type: 'ref/prompt', name: 'triage' }, argument: { name: 'issue', value: 'PTC-' } });
console.log(`\n> complete triage(issue: "PTC-")\n${completion.completion.values.join(', ')}`);
const prompt = await client.getPrompt({ name: 'triage', arguments: { issue: 'PTC-1' } });
console.log(`> get prompt triage {"issue":"PTC-1"}\n${prompt.messages.map((m) => `[${m.role}] ${m.content.text}`).join('\n')}`);

for (const call of [
  { name: 'summarize_issue', arguments: { issue: 'PTC-1' } },
  { name: 'delete_issue', arguments: { issue: 'PTC-1' } },
]) {
  console.log(`\n> ${call.name} ${JSON.stringify(call.arguments)}`);
  const result = await client.callTool(call);
  console.log(`isError=${result.isError}\n${result.content.map((c) => c.text).join('\n')}`);
}
await client.close();
