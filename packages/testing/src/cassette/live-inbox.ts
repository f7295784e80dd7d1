import type { JsonRpcId, JsonRpcMessage, SendOptions, Transport } from "@mcpkit/jsonrpc";

type Message = Record<string, unknown>;

interface Waiter {
  test: (message: Message) => boolean;
  resolve: (message: Message | undefined) => void;
}

/**
 * What a live server sent, kept until asked for: the verifier takes the answer to an id, the next
 * server request of a method, or the next notification of a method (and subscription), each wait
 * bounded by a timeout. Messages nobody asks for stay in the inbox unanswered.
 */
export class LiveInbox {
  private readonly messages: Message[] = [];
  private readonly waiters: Waiter[] = [];
  private closedReason: string | undefined;

  constructor(
    private readonly transport: Transport,
    private readonly sendOptions?: (message: JsonRpcMessage) => SendOptions | undefined,
  ) {}

  start(): Promise<void> {
    return this.transport.start({
      onMessage: (value) => {
        if (value === null || typeof value !== "object" || Array.isArray(value)) return;
        this.messages.push(value as Message);
        this.wake();
      },
      onInvalid: () => {},
      onClose: (reason) => {
        this.closedReason = reason?.message ?? "closed";
        for (const waiter of this.waiters.splice(0)) waiter.resolve(undefined);
      },
    });
  }

  send(message: JsonRpcMessage): Promise<void> {
    return this.transport.send(message, this.sendOptions?.(message));
  }

  response(id: JsonRpcId, timeoutMs: number): Promise<Message | undefined> {
    const key = JSON.stringify(id);
    return this.take((m) => typeof m.method !== "string" && JSON.stringify(m.id) === key, timeoutMs);
  }

  serverRequest(method: string, timeoutMs: number): Promise<Message | undefined> {
    return this.take((m) => m.method === method && m.id !== undefined, timeoutMs);
  }

  notification(method: string, subscription: unknown, timeoutMs: number): Promise<Message | undefined> {
    return this.take((m) => {
      if (m.method !== method || m.id !== undefined) return false;
      if (subscription === undefined) return true;
      const meta = (m.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
      return meta?.["io.modelcontextprotocol/subscriptionId"] === subscription;
    }, timeoutMs);
  }

  private take(test: (message: Message) => boolean, timeoutMs: number): Promise<Message | undefined> {
    const at = this.messages.findIndex(test);
    if (at >= 0) return Promise.resolve(this.messages.splice(at, 1)[0]);
    if (this.closedReason !== undefined) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        resolve(undefined);
      }, timeoutMs);
      const waiter: Waiter = {
        test,
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message);
        },
      };
      this.waiters.push(waiter);
    });
  }

  private wake(): void {
    for (const waiter of this.waiters.slice()) {
      const at = this.messages.findIndex(waiter.test);
      if (at < 0) continue;
      const [message] = this.messages.splice(at, 1);
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve(message);
    }
  }
}
