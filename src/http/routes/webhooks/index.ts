// /api/v1/webhooks: create, list, show, update, delete; the delivery log, one delivery,
// redeliver, and a test ping. Handlers are a few lines: schema → service → presenter.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { preValidationHookHandler } from 'fastify';
import { notFound } from '../../../errors.js';
import type { WebhookEvent } from '../../../services/webhooks/types.js';
import { requireAuth } from '../../plugins/auth.js';
import { paginate } from '../../../contract/pagination.js';
import {
  presentCreatedWebhook,
  presentDelivery,
  presentDeliveryWithPayload,
  presentWebhook,
} from '../../../contract/webhooks/present.js';
import { errorResponses } from '../../../contract/common.js';
import {
  CreateWebhookBody,
  DeliveryEnvelope,
  DeliveryList,
  DeliveryParams,
  DeliveryWithPayloadEnvelope,
  ListDeliveriesQuery,
  ListWebhooksQuery,
  UpdateWebhookBody,
  WebhookCreatedEnvelope,
  WebhookDeleted,
  WebhookEnvelope,
  WebhookList,
  WebhookParams,
} from '../../../contract/webhooks/schemas.js';
import type { RouteDeps } from '../deps.js';

const BODY_TYPES = ['application/x-www-form-urlencoded', 'application/json'];
const DIGITS = /^[0-9]+$/;

const rawQuery = (url: string) => {
  const i = url.indexOf('?');
  return i === -1 ? '' : url.slice(i + 1);
};

/** A form body may name several events in one field: `events=report.created,report.failed`. */
const splitEvents: preValidationHookHandler = (request, _reply, done) => {
  const body = request.body as { events?: unknown } | undefined;
  const split = (v: unknown) =>
    typeof v === 'string' && v.includes(',')
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '')
      : [v];
  if (body && typeof body === 'object' && body.events !== undefined) {
    body.events = Array.isArray(body.events) ? body.events.flatMap(split) : split(body.events);
  }
  done();
};

/** The delivery id in a path is decimal digits (as the report id is: app.ts). */
const deliveryDigits: preValidationHookHandler = (request, _reply, done) => {
  const d = (request.params as { delivery?: unknown }).delivery;
  if (typeof d === 'string' && !DIGITS.test(d)) return done(notFound('No such delivery.'));
  done();
};

export const webhookRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services, config }) => {
  const tags = ['webhooks'];
  const security = [{ bearerAuth: [] }];
  const config404 = { notFoundMessage: 'No such webhook.' };
  // absent list parameters take the schema's defaults (written once, in the schema)
  const defaults = ListWebhooksQuery.properties as unknown as Record<
    'page' | 'per_page',
    { default: unknown }
  >;
  const page = (q: { page?: number | undefined; per_page?: 10 | 25 | 50 | 100 | undefined }) => ({
    page: q.page ?? (defaults.page.default as number),
    perPage: q.per_page ?? (defaults.per_page.default as 10 | 25 | 50 | 100),
  });

  app.post(
    '/webhooks',
    {
      schema: {
        operationId: 'createWebhook',
        summary: 'Create a webhook',
        description:
          'Registers a URL for events. The answer carries the signing secret (`whsec_…`), shown this once. A URL whose host resolves to a loopback, private or reserved address is refused (422 under `errors.url`).',
        tags,
        security,
        consumes: BODY_TYPES,
        body: CreateWebhookBody,
        response: { 201: WebhookCreatedEnvelope, ...errorResponses(400, 401, 413, 415, 422, 429) },
      },
      preValidation: splitEvents,
    },
    async (request, reply) => {
      const actor = requireAuth(request);
      const body = request.body;
      const { webhook, secret } = await services.webhooks.create(actor, {
        url: body.url,
        events: body.events as WebhookEvent[],
        ...(body.description !== undefined ? { description: body.description } : {}),
      });
      const data = presentCreatedWebhook(webhook, secret, config.publicUrl);
      return reply.code(201).header('Location', data.links.self).send({ data });
    },
  );

  app.get(
    '/webhooks',
    {
      schema: {
        operationId: 'listWebhooks',
        summary: 'List webhooks',
        description: 'Newest first.',
        tags,
        security,
        querystring: ListWebhooksQuery,
        response: { 200: WebhookList, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => {
      const actor = requireAuth(request);
      const p = page(request.query);
      const result = await services.webhooks.list(actor, p);
      return paginate({
        items: result.items.map((w) => presentWebhook(w, config.publicUrl)),
        total: result.total,
        ...p,
        path: `${config.publicUrl}/api/v1/webhooks`,
        rawQuery: rawQuery(request.url),
      });
    },
  );

  app.get(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'showWebhook',
        summary: 'Show a webhook',
        tags,
        security,
        params: WebhookParams,
        response: { 200: WebhookEnvelope, ...errorResponses(401, 404, 429) },
      },
      config: config404,
    },
    async (request) => {
      const actor = requireAuth(request);
      return {
        data: presentWebhook(await services.webhooks.get(actor, request.params.id), config.publicUrl),
      };
    },
  );

  app.patch(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'updateWebhook',
        summary: 'Update a webhook',
        description:
          '`url`, `events`, `description`, and `enabled` (1 enables a disabled webhook again and clears its failure count; 0 disables it).',
        tags,
        security,
        params: WebhookParams,
        consumes: BODY_TYPES,
        body: UpdateWebhookBody,
        response: { 200: WebhookEnvelope, ...errorResponses(400, 401, 404, 413, 415, 422, 429) },
      },
      config: config404,
      preValidation: splitEvents,
    },
    async (request) => {
      const actor = requireAuth(request);
      const body = request.body;
      const webhook = await services.webhooks.update(actor, request.params.id, {
        ...(body.url !== undefined ? { url: body.url } : {}),
        ...(body.events !== undefined ? { events: body.events as WebhookEvent[] } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.enabled !== undefined ? { enabled: body.enabled === 1 } : {}),
      });
      return { data: presentWebhook(webhook, config.publicUrl) };
    },
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook',
        description: 'Its delivery log goes with it; pending deliveries are not sent.',
        tags,
        security,
        params: WebhookParams,
        response: { 200: WebhookDeleted, ...errorResponses(401, 404, 429) },
      },
      config: config404,
    },
    async (request) => {
      const actor = requireAuth(request);
      await services.webhooks.delete(actor, request.params.id);
      return { id: request.params.id, object: 'webhook' as const, deleted: true as const };
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: "List a webhook's deliveries",
        description:
          'The delivery log, newest first: status, attempts, the last response code, duration and error.',
        tags,
        security,
        params: WebhookParams,
        querystring: ListDeliveriesQuery,
        response: { 200: DeliveryList, ...errorResponses(401, 404, 422, 429) },
      },
      config: config404,
    },
    async (request) => {
      const actor = requireAuth(request);
      const p = page(request.query);
      const id = request.params.id;
      const result = await services.webhooks.deliveries(actor, id, { ...p, status: request.query.status });
      return paginate({
        items: result.items.map((d) => presentDelivery(d, config.publicUrl)),
        total: result.total,
        ...p,
        path: `${config.publicUrl}/api/v1/webhooks/${id}/deliveries`,
        rawQuery: rawQuery(request.url),
      });
    },
  );

  app.get(
    '/webhooks/:id/deliveries/:delivery',
    {
      schema: {
        operationId: 'showWebhookDelivery',
        summary: 'Show a delivery',
        description: 'One delivery with the JSON body it sends.',
        tags,
        security,
        params: DeliveryParams,
        response: { 200: DeliveryWithPayloadEnvelope, ...errorResponses(401, 404, 429) },
      },
      config: config404,
      preValidation: deliveryDigits,
    },
    async (request) => {
      const actor = requireAuth(request);
      const { id, delivery } = request.params;
      const d = await services.webhooks.delivery(actor, id, delivery);
      return { data: presentDeliveryWithPayload(d, config.publicUrl) };
    },
  );

  app.post(
    '/webhooks/:id/deliveries/:delivery/redeliver',
    {
      schema: {
        operationId: 'redeliverWebhookDelivery',
        summary: 'Redeliver an event',
        description:
          "Sends the delivery's event again as a new delivery with the same `webhook-id` and body (a fresh timestamp and signature). 422 under `errors.enabled` when the webhook is disabled.",
        tags,
        security,
        params: DeliveryParams,
        response: { 202: DeliveryEnvelope, ...errorResponses(401, 404, 422, 429) },
      },
      config: config404,
      preValidation: deliveryDigits,
    },
    async (request, reply) => {
      const actor = requireAuth(request);
      const { id, delivery } = request.params;
      const d = await services.webhooks.redeliver(actor, id, delivery);
      return reply.code(202).send({ data: presentDelivery(d, config.publicUrl) });
    },
  );

  app.post(
    '/webhooks/:id/test',
    {
      schema: {
        operationId: 'testWebhook',
        summary: 'Send a test ping',
        description: `Delivers a \`webhook.test\` event to this webhook, whatever events it takes. 422 under \`errors.enabled\` when it is disabled.`,
        tags,
        security,
        params: WebhookParams,
        response: { 202: DeliveryEnvelope, ...errorResponses(401, 404, 422, 429) },
      },
      config: config404,
    },
    async (request, reply) => {
      const actor = requireAuth(request);
      const d = await services.webhooks.test(actor, request.params.id);
      return reply.code(202).send({ data: presentDelivery(d, config.publicUrl) });
    },
  );
};
