// A delaying TCP relay (no dependencies: it runs inside a network namespace through `ip netns exec`).
//   node relay.mjs LISTEN_HOST LISTEN_PORT TARGET_HOST TARGET_PORT MEAN_MS JITTER_MS
// Every chunk, each way, is held MEAN_MS ± JITTER_MS (uniform) before it is passed on; order is kept per
// direction. Prints "ready" once listening; exits on SIGTERM.
import net from "node:net";

const [listenHost, listenPort, targetHost, targetPort, mean, jitter] = process.argv.slice(2);
const delay = () => Number(mean) + (Math.random() * 2 - 1) * Number(jitter);

function pipe(from, to) {
  let last = 0;
  from.on("data", (chunk) => {
    // Never before the chunk ahead of it: a TCP stream keeps its order.
    const at = Math.max(Date.now() + delay(), last);
    last = at;
    setTimeout(() => to.writable && to.write(chunk), at - Date.now());
  });
  from.on("end", () => setTimeout(() => to.end(), Math.max(0, last - Date.now()) + 1));
  from.on("error", () => to.destroy());
  from.on("close", () => setTimeout(() => to.destroy(), Math.max(0, last - Date.now()) + 5));
}

const server = net.createServer((client) => {
  const upstream = net.connect(Number(targetPort), targetHost);
  pipe(client, upstream);
  pipe(upstream, client);
});
server.listen(Number(listenPort), listenHost, () => console.log("ready"));
process.on("SIGTERM", () => process.exit(0));
