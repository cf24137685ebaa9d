import { Arg, Ctx, Mutation, Query, Resolver } from "type-graphql";
import type { Context } from "../../../graphql/context";
import { UUIDScalar } from "../../../graphql/scalars";
import { CreateProjectInput, UpdateProjectInput } from "./project.inputs";
import { createProject, listProjects, updateProject } from "./project.service";
import { Project } from "./project.type";

@Resolver(() => Project)
export class ProjectResolver {
  @Query(() => [Project])
  projects(@Ctx() ctx: Context): Promise<Project[]> {
    return listProjects(ctx.db, ctx.viewer);
  }

  @Mutation(() => Project)
  createProject(@Arg("input", () => CreateProjectInput) input: CreateProjectInput, @Ctx() ctx: Context): Promise<Project> {
    return createProject(ctx.db, ctx.viewer.organizationId, input);
  }

  @Mutation(() => Project)
  updateProject(
    @Arg("id", () => UUIDScalar) id: string,
    @Arg("input", () => UpdateProjectInput) input: UpdateProjectInput,
    @Ctx() ctx: Context,
  ): Promise<Project> {
    return updateProject(ctx.db, ctx.viewer.organizationId, id, input);
  }
}
