import Type from 'typebox'

/**
 * The `Idempotency-Key` header every write accepts, for the OpenAPI document. Its format is
 * checked by the write runner, which answers 400 (not the validator's 422) for a malformed key.
 */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      description:
        'Makes retries safe: the same key and request within 24 hours returns the first response again (with `Idempotent-Replayed: true`). 1–255 characters of A-Z a-z 0-9 _ . : -; a UUID is a good choice.',
    }),
  ),
})
