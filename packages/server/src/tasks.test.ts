import { describe, expect, it } from "vitest";
import {
  createInMemoryTaskStore,
  type StoredTask,
  TaskCancelledError,
  TaskManager,
  type TaskSignal,
  type TaskStore,
} from "./tasks.js";

/** Two instances' stores over one record map and one signal channel, as a shared store would be. */
function sharedStores(): [TaskStore, TaskStore, TaskSignal[]] {
  const records = createInMemoryTaskStore();
  const listeners: Array<(signal: TaskSignal) => void> = [];
  const sent: TaskSignal[] = [];
  const make = (): TaskStore => ({
    create: (task) => records.create(task),
    get: (id) => records.get(id),
    update: (task) => records.update(task),
    signals: {
      publish(signal) {
        sent.push(signal);
        for (const listener of listeners) listener(structuredClone(signal));
      },
      subscribe(listener) {
        listeners.push(listener);
      },
    },
  });
  return [make(), make(), sent];
}

const manager = (store: TaskStore) =>
  new TaskManager(
    store,
    60_000,
    100,
    () => {},
    (message, error) => {
      throw new Error(`${message}: ${String(error)}`);
    },
  );

describe("TaskManager across instances (store signals)", () => {
  it("a cancel handled by another instance aborts the running handler's signal", async () => {
    const [storeA, storeB, sent] = sharedStores();
    const a = manager(storeA);
    const b = manager(storeB);
    const { task, signal } = await a.create(undefined);
    await b.cancel(task.taskId);
    expect(sent).toEqual([{ type: "cancel", taskId: task.taskId }]);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBeInstanceOf(TaskCancelledError);
    expect((await b.get(task.taskId, undefined))?.status).toBe("cancelled");
  });

  it("input answered on another instance reaches the waiting handler, which updates the record", async () => {
    const [storeA, storeB] = sharedStores();
    const a = manager(storeA);
    const b = manager(storeB);
    const { task } = await a.create(undefined);
    const answer = a.requestInput(task.taskId, "elicit", { method: "roots/list", params: {} } as never, "k");
    await expect.poll(async () => (await b.get(task.taskId, undefined))?.status).toBe("input_required");
    await b.update(task.taskId, { k: { roots: [] } });
    expect(await answer).toEqual({ roots: [] });
    await expect.poll(async () => (await b.get(task.taskId, undefined))?.status).toBe("working");
    await a.finish(task.taskId, { result: { content: [] } });
    const done = (await b.get(task.taskId, undefined)) as StoredTask;
    expect(done).toMatchObject({ status: "completed", result: { content: [] } });
  });

  it("the running instance itself acts without a signal; the in-memory store has none", async () => {
    const [storeA, , sent] = sharedStores();
    const a = manager(storeA);
    const { task, signal } = await a.create(undefined);
    await a.cancel(task.taskId);
    expect(signal.aborted).toBe(true);
    expect(sent).toEqual([]);
    const local = manager(createInMemoryTaskStore());
    const other = await local.create(undefined);
    await local.update("unknown", { k: 1 });
    await local.cancel(other.task.taskId);
    expect(other.signal.aborted).toBe(true);
  });

  it("a subscription that fails fails that task's start only; the next start subscribes again", async () => {
    const [store] = sharedStores();
    let attempts = 0;
    const flaky: TaskStore = Object.assign({}, store, {
      signals: {
        publish: store.signals!.publish,
        subscribe(listener: (signal: TaskSignal) => void) {
          if (attempts++ === 0) return Promise.reject(new Error("Redis is down"));
          return store.signals!.subscribe(listener);
        },
      },
    });
    const m = manager(flaky);
    await expect(m.create(undefined)).rejects.toThrow("Redis is down");
    const { task } = await m.create(undefined);
    expect(task.status).toBe("working");
    expect(attempts).toBe(2);
  });
});
