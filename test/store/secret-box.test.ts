import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError } from '../../src/config.ts';
import { createSecretBox, newSecretKeyLine, parseSecretKeys } from '../../src/store/secret-box.ts';
import { StoreError } from '../../src/store/store-error.ts';

const OLD = parseSecretKeys(newSecretKeyLine(), 'old')[0]!;
const NEW = parseSecretKeys(newSecretKeyLine(), 'new')[0]!;

describe('secret box: envelope encryption of stored secrets', () => {
  it('seals a value so that it opens to the same text, and the stored form holds no trace of it', () => {
    const box = createSecretBox([OLD]);
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'user_mfa.secret:U1');
    assert.match(sealed, new RegExp(`^sealed:v1:${OLD.id}:`));
    assert.doesNotMatch(sealed, /JBSWY3DPEHPK3PXP/);
    assert.equal(box.open(sealed, 'user_mfa.secret:U1'), 'JBSWY3DPEHPK3PXP');
    assert.notEqual(box.seal('JBSWY3DPEHPK3PXP', 'user_mfa.secret:U1'), sealed, 'a fresh data key and IV every time');
  });

  it('refuses a value moved to another row, a changed value, and a key that is not configured', () => {
    const box = createSecretBox([OLD]);
    const sealed = box.seal('secret', 'user_mfa.secret:U1');
    assert.throws(() => box.open(sealed, 'user_mfa.secret:U2'), (e: unknown) => e instanceof StoreError && e.code === 'SECRET_UNREADABLE');
    const parts = sealed.split(':');
    const data = Buffer.from(parts[5]!, 'base64url');
    data[0] = data[0]! ^ 1;
    parts[5] = data.toString('base64url');
    assert.throws(() => box.open(parts.join(':'), 'user_mfa.secret:U1'), /changed/);
    assert.throws(() => createSecretBox([NEW]).open(sealed, 'user_mfa.secret:U1'), new RegExp(`key "${OLD.id}", which is not configured`));
  });

  it('opens a value stored before encryption at rest as it is, and seals it on reseal', () => {
    const box = createSecretBox([OLD]);
    assert.equal(box.open('whsec_plain', 'ctx'), 'whsec_plain');
    assert.equal(box.keyIdOf('whsec_plain'), null);
    const sealed = box.reseal('whsec_plain', 'ctx');
    assert.ok(sealed !== null && box.keyIdOf(sealed) === OLD.id);
    assert.equal(box.open(sealed, 'ctx'), 'whsec_plain');
  });

  it('rotates by re-wrapping the data key only: the value part stays, the new key alone then opens it', () => {
    const sealedOld = createSecretBox([OLD]).seal('secret', 'ctx');
    const both = createSecretBox([NEW, OLD]);
    assert.equal(both.open(sealedOld, 'ctx'), 'secret', 'every configured key opens');
    const rotated = both.reseal(sealedOld, 'ctx');
    assert.ok(rotated !== null);
    assert.equal(both.keyIdOf(rotated), NEW.id);
    assert.equal(rotated.split(':').slice(4).join(':'), sealedOld.split(':').slice(4).join(':'), 'IV and ciphertext are unchanged');
    assert.equal(createSecretBox([NEW]).open(rotated, 'ctx'), 'secret');
    assert.equal(both.reseal(rotated, 'ctx'), null, 'already sealed with the first key');
  });

  it('reads key lists, one per line or comma-separated, and refuses malformed ones naming the source', () => {
    const line = newSecretKeyLine();
    assert.equal(parseSecretKeys(`# a comment: with a colon, and a comma\n${line}\n\n`, 'file').length, 1);
    assert.equal(parseSecretKeys(`${newSecretKeyLine()},${line}`, 'env').length, 2);
    assert.throws(() => parseSecretKeys('', 'APAS_SECRET_KEYS'), (e: unknown) => e instanceof ConfigError && /APAS_SECRET_KEYS holds no key/.test(e.message));
    assert.throws(() => parseSecretKeys('k1:c2hvcnQ=', 'APAS_SECRET_KEYS'), /32 bytes/);
    assert.throws(() => parseSecretKeys(`${line}\n${line}`, 'file'), /twice/);
  });
});
