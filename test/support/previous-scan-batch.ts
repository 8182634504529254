/**
 * The scan batch statements of the version before scans were packed (commit d1045ec), frozen: an instance still
 * running that version during an upgrade sends exactly these. Parameters: the batch id, and the batch as JSON
 * ({ scans: [[codeId, accountId, device, os, browser, destination, referrer host, [times]]], counts:
 * [[codeId, scans, bot scans]] }).
 */
export const PREVIOUS_WRITE_SCAN_BATCH = {
  name: 'qroute_write_scan_batch_v4',
  text: `
    with batch as (
      insert into scan_batches (id) values ($1) on conflict do nothing returning id
    ),
    g as materialized (
      select e->>0 as c, e->>1 as a, e->>2 as d, e->>3 as o, e->>4 as b, e->>5 as u, e->>6 as r, e->7 as times
      from jsonb_array_elements($2::jsonb->'scans') as e
      where exists (select from batch)
    ),
    inserted as (
      insert into scans (qr_code_id, created_at, device, os, browser, destination_url, referrer_host)
      select g.c, t::timestamptz, g.d, g.o, g.b, g.u, g.r from g cross join lateral jsonb_array_elements_text(g.times) as t
    ),
    deliveries as (
      select qroute_new_id('whd', (extract(epoch from t::timestamptz) * 1000000)::bigint) as id, g.a, g.c, t, g.d, g.o, g.b, q.slug, q.name
      from g join webhook_endpoints e on e.account_id = g.a and e.disabled_at is null
      join qr_codes q on q.id = g.c
      cross join lateral jsonb_array_elements_text(g.times) as t
    ),
    outbox as (
      insert into webhook_deliveries (id, account_id, qr_code_id, event, body, created_at)
      select id, a, c, 'scan.created',
        '{"event":"scan.created","qrCodeId":' || to_json(c)::text || ',"slug":' || to_json(slug)::text ||
        ',"name":' || to_json(name)::text || ',"device":' || to_json(d)::text || ',"os":' || to_json(o)::text ||
        ',"browser":' || to_json(b)::text || ',"id":' || to_json(id)::text || ',"createdAt":' || to_json(t)::text || '}',
        t::timestamptz
      from deliveries
      returning 1
    ),
    counted as (
      insert into qr_code_scan_increments (qr_code_id, scans, bot_scans)
      select e->>0, (e->>1)::bigint, (e->>2)::bigint
      from jsonb_array_elements($2::jsonb->'counts') as e
      where exists (select from batch)
    )
    -- Wakes the webhook workers on commit, only when this batch queued a delivery.
    select pg_notify('qroute_webhooks_due', '') from (select from outbox limit 1) as queued`,
};

export const PREVIOUS_WRITE_SCAN_BATCH_WITHOUT_WEBHOOKS = {
  name: 'qroute_write_scan_batch_without_webhooks_v1',
  text: `
    with endpoints as materialized (
      select e.account_id from webhook_endpoints e
      where e.disabled_at is null and e.account_id in (select s->>1 from jsonb_array_elements($2::jsonb->'scans') as s)
    ),
    batch as (
      insert into scan_batches (id) select $1 where not exists (select from endpoints)
      on conflict do nothing returning id
    ),
    g as materialized (
      select e->>0 as c, e->>1 as a, e->>2 as d, e->>3 as o, e->>4 as b, e->>5 as u, e->>6 as r, e->7 as times
      from jsonb_array_elements($2::jsonb->'scans') as e
      where exists (select from batch)
    ),
    inserted as (
      insert into scans (qr_code_id, created_at, device, os, browser, destination_url, referrer_host)
      select g.c, t::timestamptz, g.d, g.o, g.b, g.u, g.r from g cross join lateral jsonb_array_elements_text(g.times) as t
    ),
    counted as (
      insert into qr_code_scan_increments (qr_code_id, scans, bot_scans)
      select e->>0, (e->>1)::bigint, (e->>2)::bigint
      from jsonb_array_elements($2::jsonb->'counts') as e
      where exists (select from batch)
    )
    select array(select account_id from endpoints) as webhook_accounts`,
};
