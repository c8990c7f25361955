/** An export document that cannot be imported, or a database it cannot go into; nothing was changed. */
export class TransferRefused extends Error {
  override name = "TransferRefused";
}
