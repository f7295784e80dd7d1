/**
 * The handlers of one kind (requests or notifications) by method, with a fallback for every other
 * method: what the peer looks up for each inbound message.
 */
export class HandlerTable<H> {
  readonly #byMethod = new Map<string, H>();
  /** The handler of every method without its own. */
  any: H | undefined = undefined;

  /** The handler of `method`, else the fallback. */
  find(method: string): H | undefined {
    return this.#byMethod.get(method) ?? this.any;
  }

  /** Sets `handler` for `method`; the function returned removes it again, unless it was replaced since. */
  set(method: string, handler: H): () => void {
    const byMethod = this.#byMethod;
    byMethod.set(method, handler);
    return () => {
      if (byMethod.get(method) === handler) byMethod.delete(method);
    };
  }
}
