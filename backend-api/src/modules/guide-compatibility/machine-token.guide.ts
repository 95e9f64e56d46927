// The guide's machine token issuer (guide: "The token issuer carries the resolved scope and principal into the
// signed claim"), verbatim. The engine's own `AccessTokenService.issueClientAccessToken` builds the same
// `Jwt_MachineToken_CreationParameter`; the configuration and JWT services here are the excerpt's collaborators.
import { ExecutionContext_ExecutionType, ResourcePrimaryScope } from '@wildo-ai/saas-models';
import type {
  Jwt_MachineToken_CreationParameter,
  Logger,
  MachineAccessTokenRequest,
  MachineAccessTokenResponse,
} from '@wildo-ai/saas-backend-lib';

interface MachineJwtService {
  createJwtForMachineToken(
    claim: Jwt_MachineToken_CreationParameter,
    options: { audience: string; expiresInMinutes: number },
  ): Promise<string>;
}

export class MachineTokenIssuerBackendService {
  constructor(
    private readonly appConfigService: { config: { jwt: { accessTokenExpirationMinutes: number } } },
    private readonly jwtService: MachineJwtService,
    private readonly logger: Logger,
  ) {}

  public async issueClientAccessToken(request: MachineAccessTokenRequest): Promise<MachineAccessTokenResponse> {
    const maxMinutes = this.appConfigService.config.jwt.accessTokenExpirationMinutes;
    const requestedMinutes = request.expiresInMinutes ?? maxMinutes;
    const minutes = Math.max(1, Math.min(requestedMinutes, maxMinutes));

    const claim: Jwt_MachineToken_CreationParameter = {
      type:
        request.scopeType === ResourcePrimaryScope.ORGANIZATIONS
          ? ExecutionContext_ExecutionType.ORGANIZATION_MACHINE
          : ExecutionContext_ExecutionType.APPLICATION_MACHINE,
      clientId: request.clientId,
      scopeId: request.scopeId,
      roles: request.roles,
    };

    const accessToken = await this.jwtService.createJwtForMachineToken(claim, {
      audience: request.audience,
      expiresInMinutes: minutes,
    });

    this.logger.debug('Issued machine client-credentials access token', {
      clientId: request.clientId,
      scopeType: request.scopeType,
      scopeId: request.scopeId,
      audience: request.audience,
      expiresInMinutes: minutes,
    });

    return { accessToken, tokenType: 'Bearer', expiresIn: minutes * 60 };
  }
}
