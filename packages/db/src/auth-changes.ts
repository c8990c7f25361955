/** The channel the auth-change-notifications migration's triggers announce changes on. */
export const AUTH_CHANGES_CHANNEL = "vexil_auth_changes";
/** The payload announcing a change to a token's row. */
export const tokenTag = (tokenId: number) => `token:${tokenId}`;
/** The payload announcing a change to a user's row or to one of their sessions. */
export const userTag = (userId: number) => `user:${userId}`;
