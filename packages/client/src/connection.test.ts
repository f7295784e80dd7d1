import { ConnectionClosedError, createInMemoryPair } from "@mcpkit/jsonrpc";
import { describe, expect, it } from "vitest";
import { ClientLife } from "./client-life.js";
import { Connection } from "./connection.js";
import type { Negotiator } from "./negotiation.js";
import type { Session } from "./session.js";

/** A negotiator that hands out fake sessions, counting handshakes. */
function fakeNegotiator() {
  const made: Array<Session & { closed: boolean }> = [];
  const negotiator = {
    recall: () => {},
    remember: () => {},
    async establish() {
      const s = {
        dead: false,
        closeReason: undefined,
        subs: new Set(),
        closed: false,
      } as unknown as Session & {
        closed: boolean;
      };
      (s as { close: () => Promise<void> }).close = async () => {
        s.closed = true;
      };
      made.push(s);
      return s;
    },
  } as unknown as Negotiator;
  return { negotiator, made };
}

function connection(autoRespawn = false) {
  const { negotiator, made } = fakeNegotiator();
  const settled: Session[] = [];
  const lifetime = new AbortController();
  const conn = new Connection({
    negotiator,
    life: new ClientLife(),
    lifetime,
    lock: undefined,
    autoRespawn,
    onSettled: (s) => settled.push(s),
  });
  return { conn, made, settled, lifetime };
}
const factory = () => createInMemoryPair()[0];

describe("Connection", () => {
  it("connects once; a second connect() or a call before connect() says what to do", async () => {
    const { conn, settled } = connection();
    await expect(conn.ensure()).rejects.toThrow(/not connected/);
    await conn.connect(factory, {});
    expect(conn.state).toBe("open");
    expect(conn.live()).toBe(settled[0]);
    await expect(conn.connect(factory, {})).rejects.toThrow(/twice/);
  });

  it("reconnects a dead session through the factory only with autoRespawn", async () => {
    const plain = connection();
    await plain.conn.connect(factory, {});
    (plain.made[0] as { dead: boolean }).dead = true;
    expect(plain.conn.live()).toBeUndefined();
    await expect(plain.conn.ensure()).rejects.toThrow(/autoRespawn: true/);

    const respawning = connection(true);
    await respawning.conn.connect(factory, {});
    (respawning.made[0] as { dead: boolean }).dead = true;
    const [a, b] = await Promise.all([respawning.conn.ensure(), respawning.conn.ensure()]);
    expect(a).toBe(b);
    expect(respawning.made).toHaveLength(2);
    expect(respawning.conn.live()).toBe(respawning.made[1]);
  });

  it("closes once: the lifetime aborts, the session closes, later calls fail as closed", async () => {
    const { conn, made, lifetime } = connection();
    await conn.connect(factory, {});
    await Promise.all([conn.close(), conn.close()]);
    expect(conn.state).toBe("closed");
    expect(lifetime.signal.aborted).toBe(true);
    expect(made[0]!.closed).toBe(true);
    await expect(conn.ensure()).rejects.toThrow(ConnectionClosedError);
    await expect(conn.connect(factory, {})).rejects.toThrow(/closed client/);
  });
});
