import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Signed invoice files made by OpenSSL, an independent CMS implementation, as signing tools make them: a self-signed
 * certificate in the style of an Italian qualified one, CAdES-BES attributes (`-cades`), the content attached.
 */
export class SignedFiles {
  private constructor(private readonly dir: string) {}

  static create(): SignedFiles {
    const dir = mkdtempSync(join(tmpdir(), 'flusso-p7m-'));
    for (const name of ['first', 'second']) {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          join(dir, `${name}.key`),
          '-out',
          join(dir, `${name}.pem`),
          '-days',
          '3650',
          '-subj',
          `/C=IT/O=Flusso Test/CN=MARIO ROSSI ${name.toUpperCase()}/serialNumber=TINIT-RSSMRA80A01H501U`,
        ],
        { stdio: 'ignore' },
      );
    }
    return new SignedFiles(dir);
  }

  /** The CMS envelope (DER) of `content`, signed by one signer or both, attached unless `detached`. */
  sign(content: Buffer, options: { signers?: number; detached?: boolean } = {}): Buffer {
    const input = join(this.dir, 'content');
    const output = join(this.dir, 'content.p7m');
    writeFileSync(input, content);
    const signers = ['first', 'second']
      .slice(0, options.signers ?? 1)
      .flatMap((n) => ['-signer', join(this.dir, `${n}.pem`), '-inkey', join(this.dir, `${n}.key`)]);
    execFileSync(
      'openssl',
      [
        'cms',
        '-sign',
        '-binary',
        ...(options.detached ? [] : ['-nodetach']),
        '-cades',
        '-md',
        'sha256',
        ...signers,
        '-in',
        input,
        '-outform',
        'DER',
        '-out',
        output,
      ],
      {
        stdio: 'ignore',
      },
    );
    return readFileSync(output);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
