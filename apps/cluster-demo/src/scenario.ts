import type { ClusterClient } from "./cluster-client.js";
import type { Message, Reply } from "./reply.js";

/** What the steps need: the client through the proxy, a way to kill an instance, and the printer. */
export interface Stage {
  client: ClusterClient;
  kill(instance: number): Promise<void>;
  print(line: string): void;
}

/** A failed expectation of the walk-through: the demo stops and exits non-zero. */
export function check(ok: unknown, what: string): asserts ok {
  if (!ok) throw new Error(`check failed: ${what}`);
}

const COUNTER = "everything://counter";
const updated = (m: Message) => m.method === "notifications/resources/updated";

function distinct(...instances: number[]): boolean {
  return new Set(instances).size === instances.length;
}

/** 1. A modern task created on one instance, polled on another, cancelled on a third. */
export async function taskAcrossInstances({ client, print }: Stage): Promise<void> {
  const created = await client.modern("tools/call", {
    name: "slow_task",
    arguments: { steps: 100, stepMs: 100 },
  });
  const task = (await created.answer())?.result;
  check(task?.resultType === "task", `slow_task became a task (${JSON.stringify(task)})`);
  print(`      task ${task.taskId} is ${task.status}, run by instance ${created.instance}`);
  const polled = await client.modern("tasks/get", { taskId: task.taskId });
  const seen = (await polled.answer())?.result;
  check(seen?.status === "working", `the task reads "working" elsewhere (${seen?.status})`);
  print(`      instance ${polled.instance} reads it from Redis: ${seen.status}`);
  const cancelled = await client.modern("tasks/cancel", { taskId: task.taskId });
  check((await cancelled.answer())?.result !== undefined, "tasks/cancel answered");
  // The cancel reached the handler on the instance running it (a signal over Redis): it stops.
  const after = await client.modern("tasks/get", { taskId: task.taskId });
  const final = (await after.answer())?.result;
  check(final?.status === "cancelled", `the task is cancelled (${final?.status})`);
  check(distinct(created.instance, polled.instance, cancelled.instance), "three different instances");
  print(
    `      created on ${created.instance}, polled on ${polled.instance}, cancelled on ${cancelled.instance}: ${final.status}`,
  );
}

/** 2. A listen stream held by one instance hears of a change made on another. */
export async function listenAcrossInstances({ client, print }: Stage): Promise<void> {
  const stop = new AbortController();
  const stream = await client.modern(
    "subscriptions/listen",
    { notifications: { resourceSubscriptions: [COUNTER] } },
    stop.signal,
  );
  const ack = await stream.next();
  check(ack?.method === "notifications/subscriptions/acknowledged", "the listen stream is acknowledged");
  let bump: Reply;
  do bump = await client.modern("tools/call", { name: "bump_counter", arguments: {} });
  while (bump.instance === stream.instance);
  await bump.answer();
  const told = await stream.next(updated);
  check(told?.params?.uri === COUNTER, "the listen stream is told of the update");
  print(
    `      the stream on instance ${stream.instance} got ${told.method} for ${COUNTER}, raised on instance ${bump.instance}`,
  );
  stop.abort();
}

/** 3. An MRTR round (input_required → retry with requestState) continued on other instances. */
export async function mrtrAcrossInstances({ client, print }: Stage): Promise<void> {
  const first = await client.modern("tools/call", { name: "multi_step_form", arguments: {} });
  const round1 = (await first.answer())?.result;
  check(round1?.resultType === "input_required", `the form asks for input (${JSON.stringify(round1)})`);
  print(`      instance ${first.instance} asks: ${round1.inputRequests.name.params.message}`);
  const second = await client.modern("tools/call", {
    name: "multi_step_form",
    arguments: {},
    inputResponses: { name: { action: "accept", content: { name: "Ada" } } },
    requestState: round1.requestState,
  });
  const round2 = (await second.answer())?.result;
  check(round2?.resultType === "input_required", "the second step asks for input");
  print(
    `      instance ${second.instance} opened the sealed requestState and asks: ${round2.inputRequests.confirm.params.message}`,
  );
  const third = await client.modern("tools/call", {
    name: "multi_step_form",
    arguments: {},
    inputResponses: { confirm: { action: "accept", content: { confirm: true } } },
    requestState: round2.requestState,
  });
  const done = (await third.answer())?.result;
  check(done?.structuredContent?.confirmed === true, `the form completes (${JSON.stringify(done)})`);
  check(distinct(first.instance, second.instance, third.instance), "three different instances");
  print(`      instance ${third.instance} completes it: ${JSON.stringify(done.structuredContent)}`);
}

/** 4. A legacy session whose elicitation, raised by a tool on one instance, is answered through another. */
export async function legacyElicitationAcrossInstances({ client, print }: Stage): Promise<void> {
  await client.openSession();
  const ask = await client.request("tools/call", { name: "ask_user", arguments: {} });
  const elicitation = await ask.next((m) => m.method === "elicitation/create");
  check(elicitation !== undefined, "the tool asks the client (elicitation/create)");
  print(
    `      the tool on instance ${ask.instance} sent elicitation/create id ${JSON.stringify(elicitation.id)} on its SSE reply`,
  );
  const answer = await client.legacy("the answer to elicitation/create", "POST", {
    jsonrpc: "2.0",
    id: elicitation.id,
    result: { action: "accept", content: { name: "Ada", color: "green" } },
  });
  check(answer.status === 202, "the answer is accepted");
  check(answer.instance !== ask.instance, "the answer went to another instance");
  const result = (await ask.answer())?.result;
  check(
    result?.content?.[0]?.text === "Hello, Ada (likes green)!",
    `the tool finishes (${JSON.stringify(result)})`,
  );
  print(
    `      instance ${answer.instance} routed it over Redis to instance ${ask.instance}: "${result.content[0].text}"`,
  );
}

/** 5. The instance holding the session's GET stream is SIGKILLed; the stream resumes on another, nothing lost. */
export async function resumeAfterKill({ client, kill, print }: Stage): Promise<void> {
  const subscribed = await client.request("resources/subscribe", { uri: COUNTER });
  check((await subscribed.answer())?.result !== undefined, "subscribed");
  const stream = await client.legacy(
    "GET (the session's SSE stream)",
    "GET",
    undefined,
    {},
    new AbortController().signal,
  );
  check(stream.status === 200, "the GET stream opens");
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    await (await client.request("tools/call", { name: "bump_counter", arguments: {} })).answer();
    const message = await stream.next(updated);
    check(message !== undefined, "the update reaches the GET stream");
    ids.push(stream.idOf.get(message)!);
  }
  print(
    `      the stream on instance ${stream.instance} carried 3 updates: ${ids.map((id) => id.slice(-15)).join(", ")}`,
  );
  print(
    `      ✂ SIGKILL instance ${stream.instance} (the client saw only the first update, as if the rest were in flight)`,
  );
  await kill(stream.instance);
  check((await stream.next(updated)) === undefined, "the stream broke with its instance");
  const resumed = await client.legacy(
    `GET with Last-Event-ID …${ids[0]!.slice(-15)}`,
    "GET",
    undefined,
    { "last-event-id": ids[0]! },
    new AbortController().signal,
  );
  check(
    resumed.status === 200 && resumed.instance !== stream.instance,
    "another instance resumes the stream",
  );
  const replayed = [await resumed.next(updated), await resumed.next(updated)];
  const replayedIds = replayed.map((m) => (m === undefined ? "" : resumed.idOf.get(m)));
  check(
    replayedIds[0] === ids[1] && replayedIds[1] === ids[2],
    `exactly the missed events, in order (${replayedIds})`,
  );
  print(`      instance ${resumed.instance} replayed the 2 missed events from Redis, same ids, in order`);
  // The resuming instance took the stream over as it answered the GET: updates raised anywhere reach it.
  const bump = await client.request("tools/call", { name: "bump_counter", arguments: {} });
  await bump.answer();
  const live = await resumed.next(updated);
  check(live !== undefined, "a live update reaches the resumed stream");
  check(resumed.idOf.get(live) !== ids[1] && resumed.idOf.get(live) !== ids[2], "nothing twice");
  print(
    `      a new update raised on instance ${bump.instance} arrives live on instance ${resumed.instance}: nothing lost, nothing twice`,
  );
  resumed.response.body?.cancel().catch(() => {});
}
