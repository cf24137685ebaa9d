import { Arg, Ctx, Mutation, Query, Resolver } from "type-graphql";
import type { Context } from "../../graphql/context";
import { CreateProjectInput } from "./project.inputs";
import { createProject, listProjects } from "./project.service";
import { Project } from "./project.type";

@Resolver(() => Project)
export class ProjectResolver {
  @Query(() => [Project], { description: "The projects of the caller's organization, oldest first (GET /api/v1/projects)." })
  projects(@Ctx() ctx: Context): Promise<Project[]> {
    return listProjects(ctx.db, ctx.viewer);
  }

  @Mutation(() => Project, { description: "A new project of the caller's organization (POST /api/v1/projects)." })
  createProject(@Arg("input", () => CreateProjectInput) input: CreateProjectInput, @Ctx() ctx: Context): Promise<Project> {
    return createProject(ctx.db, ctx.viewer.organizationId, input);
  }
}
