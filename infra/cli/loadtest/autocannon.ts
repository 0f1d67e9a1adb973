/** autocannon (typed by @types/autocannon) as the benchmark uses it: a run's event emitter and its result. */
import autocannon from 'autocannon';

export function startAutocannon(options: autocannon.Options): { instance: autocannon.Instance; result: Promise<autocannon.Result> } {
  let instance: autocannon.Instance | undefined;
  const result = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(options, (error: unknown, done) => (error ? reject(error) : resolve(done)));
  });
  return { instance: instance as autocannon.Instance, result };
}
