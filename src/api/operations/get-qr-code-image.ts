import type { RequestHandler } from 'express';
import { getQrCode as getCode } from '../../codes/qr-code-service.js';
import { qrContentFor, renderQrImage, type ErrorCorrection, type QrFormat } from '../../qr/render.js';
import { callerOf, type ApiDependencies } from '../context.js';
import type { QueryParams } from '../contract.js';
import { presentQrCode } from '../presenters.js';

export function getQrCodeImage({ db, config }: ApiDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    // Validated by the contract; the fallbacks mirror its defaults.
    const query = req.query as QueryParams<'getQrCodeImage'>;
    const code = await getCode(db, { accountId: callerOf(res).accountId, id: req.params.id });
    const { shortUrl } = presentQrCode(code, config.siteUrl);
    const image = await renderQrImage({
      text: qrContentFor(shortUrl, config.siteUrl),
      format: (query.format ?? 'svg') as QrFormat,
      size: Number(query.size ?? 512),
      margin: Number(query.margin ?? 4),
      ecc: (query.ecc ?? 'M') as ErrorCorrection,
    });
    res.setHeader('ETag', image.etag);
    res.setHeader('Cache-Control', 'private, max-age=86400');
    if (req.headers['if-none-match'] === image.etag) {
      res.status(304).end();
      return;
    }
    res.status(200).type(image.contentType).send(image.body);
  };
}
