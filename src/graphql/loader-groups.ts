/**
 * Every feature's loader groups, by key (`context.loaders.districts`). Empty here: each feature declares its
 * group beside its factory,
 *
 *   declare module "../../../graphql/loader-groups" { interface Loaders { districts: DistrictLoaders } }
 *
 * and its manifest (`feature.ts`, `loaders: { districts: createDistrictLoaders }`) is checked against it. A file
 * of its own, importing nothing: the manifest type and the loaders' runtime both read it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Loaders {}
