import * as assert from "uvu/assert";

/** Awaits a promise that must reject with `kind`, and returns the error for further checks. */
export async function rejects<E extends Error>(promise: Promise<unknown>, kind: new (...args: any[]) => E): Promise<E> {
  try {
    await promise;
  } catch (error) {
    assert.instance(error, kind);
    return error as E;
  }
  throw new assert.Assertion({
    message: `expected a ${kind.name}`,
    generated: false,
    operator: "rejects",
    expects: kind.name,
    actual: "resolved",
  });
}
