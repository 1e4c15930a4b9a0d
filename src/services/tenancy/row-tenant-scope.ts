import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Campaign, OrderLine, Photo, Project, WebhookDelivery } from '../../db/entities';
import { ACROSS_TENANTS, scopeToOwnerOf } from '../../db/tenant-filter';

/*
 * Flow steps run outside any request: their flow gives them a primary key, not a tenant. Each
 * starts by finding the tenant of that row, by id and across tenants (the one query that may,
 * loaded aside so it leaves no half-loaded entity behind), and then works in a fork scoped to that
 * tenant like a request's. null: the row is gone.
 */

const LOOKUP = { ...ACROSS_TENANTS, disableIdentityMap: true } as const;

export async function emForProject(orm: MikroORM, projectId: string): Promise<EntityManager | null> {
  const project = await orm.em.fork().findOne(Project, { id: projectId }, { fields: ['client', 'env'], ...LOOKUP });
  return project ? scopeToOwnerOf(orm.em.fork(), project) : null;
}

export async function emForPhoto(orm: MikroORM, photoId: string): Promise<EntityManager | null> {
  const photo = await orm.em
    .fork()
    .findOne(Photo, { id: photoId }, { fields: ['project.client', 'project.env'], ...LOOKUP });
  return photo ? scopeToOwnerOf(orm.em.fork(), photo.project) : null;
}

export async function emForOrderLine(orm: MikroORM, lineId: string): Promise<EntityManager | null> {
  const line = await orm.em
    .fork()
    .findOne(OrderLine, { id: lineId }, { fields: ['order.client', 'order.env'], ...LOOKUP });
  return line ? scopeToOwnerOf(orm.em.fork(), line.order) : null;
}

export async function emForCampaign(orm: MikroORM, campaignId: string): Promise<EntityManager | null> {
  const campaign = await orm.em.fork().findOne(Campaign, { id: campaignId }, { fields: ['client', 'env'], ...LOOKUP });
  return campaign ? scopeToOwnerOf(orm.em.fork(), campaign) : null;
}

export async function emForDelivery(orm: MikroORM, deliveryId: string): Promise<EntityManager | null> {
  const delivery = await orm.em
    .fork()
    .findOne(WebhookDelivery, { id: deliveryId }, { fields: ['client', 'env'], ...LOOKUP });
  return delivery ? scopeToOwnerOf(orm.em.fork(), delivery) : null;
}
