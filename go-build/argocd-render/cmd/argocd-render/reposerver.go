package main

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/status"

	argov1alpha1 "github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
	"github.com/argoproj/argo-cd/v3/reposerver/apiclient"
	reposervercache "github.com/argoproj/argo-cd/v3/reposerver/cache"
	"github.com/argoproj/argo-cd/v3/reposerver/metrics"
	"github.com/argoproj/argo-cd/v3/reposerver/repository"
	cacheutil "github.com/argoproj/argo-cd/v3/util/cache"
	"github.com/argoproj/argo-cd/v3/util/git"
	utilio "github.com/argoproj/argo-cd/v3/util/io"
)

// localRepoServer serves the ApplicationSet controller's repo-server calls with Argo CD's repo-server Service in
// this process instead of over gRPC, reading mapped repository URLs from local Git repositories.
type localRepoServer struct {
	// The embedded interface stays nil: the ApplicationSet controller only asks for Git files and directories,
	// so any other call is a bug in this tool and panics.
	apiclient.RepoServerServiceClient
	service *repository.Service
	// local maps a repoURL, exactly as a generator spells it, to the file:// URL of its local repository.
	local map[string]string
	root  string
}

// newLocalRepoServer starts Argo CD's repo-server Service with its default settings, cloning into a temporary
// folder; repos maps repoURL to a local repository path.
func newLocalRepoServer(repos map[string]string) (*localRepoServer, error) {
	root, err := os.MkdirTemp("", "argocd-render-repos-")
	if err != nil {
		return nil, err
	}
	// The repo server's defaults: 24 h repo cache, 3 min revision cache, 10 s revision lock.
	cache := reposervercache.NewCache(cacheutil.NewCache(cacheutil.NewInMemoryCache(time.Hour)), 24*time.Hour, 3*time.Minute, 10*time.Second)
	constants := repository.RepoServerInitConstants{SubmoduleEnabled: true, EnableBuiltinGitConfig: true}
	service := repository.NewService(metrics.NewMetricsServer(), cache, constants, &git.NoopCredsStore{}, root)
	if err := service.Init(); err != nil {
		return nil, err
	}
	local := map[string]string{}
	for url, path := range repos {
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, err
		}
		local[url] = "file://" + abs
	}
	return &localRepoServer{service: service, local: local, root: root}, nil
}

// NewRepoServerClient makes the server its own apiclient.Clientset: each call gets the same in-process client.
func (s *localRepoServer) NewRepoServerClient() (utilio.Closer, apiclient.RepoServerServiceClient, error) {
	return utilio.NopCloser, s, nil
}

// GetGitFiles answers the Git files generator through Argo CD's Service.
func (s *localRepoServer) GetGitFiles(ctx context.Context, in *apiclient.GitFilesRequest, _ ...grpc.CallOption) (*apiclient.GitFilesResponse, error) {
	request := *in
	var original string
	request.Repo, original = s.mapped(in.Repo)
	response, err := s.service.GetGitFiles(ctx, &request)
	return response, s.unmapped(err, request.Repo, original)
}

// GetGitDirectories answers the Git directories generator through Argo CD's Service.
func (s *localRepoServer) GetGitDirectories(ctx context.Context, in *apiclient.GitDirectoriesRequest, _ ...grpc.CallOption) (*apiclient.GitDirectoriesResponse, error) {
	request := *in
	var original string
	request.Repo, original = s.mapped(in.Repo)
	response, err := s.service.GetGitDirectories(ctx, &request)
	return response, s.unmapped(err, request.Repo, original)
}

// mapped returns a copy of repo pointing at its local repository when the URL is mapped, and the original URL.
func (s *localRepoServer) mapped(repo *argov1alpha1.Repository) (*argov1alpha1.Repository, string) {
	if repo == nil {
		return nil, ""
	}
	local, ok := s.local[repo.Repo]
	if !ok {
		return repo, repo.Repo
	}
	copied := repo.DeepCopy()
	copied.Repo = local
	return copied, repo.Repo
}

// unmapped puts the generator's URL back into an error message, so a refusal names the repository the user wrote;
// the gRPC status code is kept, as the real client would receive it.
func (s *localRepoServer) unmapped(err error, repo *argov1alpha1.Repository, original string) error {
	if err == nil || repo == nil || repo.Repo == original {
		return err
	}
	st, ok := status.FromError(err)
	if !ok {
		return err
	}
	return status.Error(st.Code(), strings.ReplaceAll(st.Message(), repo.Repo, original))
}

// close removes the clones; Argo CD leaves checked-out folders without permissions, so restore them first.
func (s *localRepoServer) close() {
	_ = filepath.WalkDir(s.root, func(path string, entry fs.DirEntry, _ error) error {
		if entry != nil && entry.IsDir() {
			_ = os.Chmod(path, 0o700)
		}
		return nil
	})
	_ = os.RemoveAll(s.root)
}
