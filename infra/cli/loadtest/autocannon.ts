/**
 * autocannon (typed by @types/autocannon) as the load test and the benchmark use it: a run's event
 * emitter and its result. `npm ci` patches it to verify TLS certificates (docs/performance.md).
 */
import autocannon from 'autocannon';

export function startAutocannon(options: autocannon.Options): { instance: autocannon.Instance; result: Promise<autocannon.Result> } {
  let instance: autocannon.Instance | undefined;
  const result = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(options, (error: unknown, done) => (error ? reject(error) : resolve(done)));
  });
  return { instance: instance as autocannon.Instance, result };
}
