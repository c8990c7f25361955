/** Hashes and checks passwords; the implementation decides where the CPU work runs. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /**
   * True when the password matches; false for a wrong password or an unreadable hash. Rejects
   * (ServiceUnavailable once the hasher is closed) when no verdict could be reached.
   */
  verify(password: string, hash: string): Promise<boolean>;
  /** A hash that matches no password, for making unknown users cost as much as known ones. */
  dummyHash(): Promise<string>;
  close(): Promise<void>;
}
