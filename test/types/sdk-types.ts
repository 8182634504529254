/**
 * Compile-time checks (run by `npm run typecheck`, never executed): the SDK's results are typed from the
 * contract, so misusing a field does not compile. Each `@ts-expect-error` fails the build if the line compiles.
 */
import { createClient, QrouteError, verifyWebhook } from '../../sdk/src/index.js';

export async function misuse(): Promise<void> {
  const client = createClient({ baseUrl: 'https://qr.example.com/api/v1', apiKey: 'qrk_x' });
  const code = await client.getQrCode('qr_x');
  const destination: string = code.destinationUrl;
  // @ts-expect-error: the field is destinationUrl
  void code.destinationURL;
  // @ts-expect-error: scanCount is a number
  const count: string = code.scanCount;
  // @ts-expect-error: `url` is required on create
  await client.createQrCode({ name: 'Poster' });
  // @ts-expect-error: `active` is a boolean
  await client.updateQrCode('qr_x', { active: 'no' });
  const { total } = await client.listQrCodeScans('qr_x');
  // @ts-expect-error: total is a number
  total.toUpperCase();

  try {
    await client.deleteQrCode('qr_x');
  } catch (error) {
    if (error instanceof QrouteError) {
      // @ts-expect-error: not an error code of the contract
      if (error.code === 'not_a_code') return;
    }
  }
  const event = verifyWebhook('{}', {}, 'whsec_x');
  // @ts-expect-error: `qrCodeId` exists on scan.created only, so it needs narrowing first
  void event.qrCodeId;
  if (event.event === 'scan.created') void event.qrCodeId;
  void destination;
  void count;
}
