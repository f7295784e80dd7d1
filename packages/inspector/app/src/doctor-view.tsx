// The connection doctor: the step that failed, what the server wrote, and the fix.
import type { Diagnosis } from "./types.js";

/** Shows a failed connect's diagnosis. */
export function DoctorView(props: { diagnosis: Diagnosis; onRetry: () => void }) {
  const d = props.diagnosis;
  return (
    <section class="doctor" id="doctor">
      <h2>Connection doctor</h2>
      <dl>
        <dt>failed step</dt>
        <dd id="doctor-step">{d.step}</dd>
        <dt>what happened</dt>
        <dd id="doctor-summary">{d.summary}</dd>
        <dt>fix</dt>
        <dd id="doctor-fix">{d.fix}</dd>
        <dt>error</dt>
        <dd>
          <code>{d.error}</code>
        </dd>
        {d.httpStatuses.length > 0 ? (
          <>
            <dt>HTTP statuses</dt>
            <dd>{d.httpStatuses.join(", ")}</dd>
          </>
        ) : null}
      </dl>
      {d.junk.length > 0 ? (
        <>
          <h3>stdout that is not JSON-RPC</h3>
          <pre>{d.junk.join("\n")}</pre>
        </>
      ) : null}
      {d.stderrTail.length > 0 ? (
        <>
          <h3>the server's stderr (last lines)</h3>
          <pre id="doctor-stderr">{d.stderrTail.join("\n")}</pre>
        </>
      ) : null}
      <button type="button" id="doctor-retry" onClick={props.onRetry}>
        retry
      </button>
    </section>
  );
}
