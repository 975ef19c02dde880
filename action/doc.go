// Package action holds the GitHub Action's step scripts (action/*.sh, run by ../action.yml)
// and their test: a fake runner that runs action.yml's steps with the variables and files
// GitHub provides and fakes of gh, curl, actions/cache and upload-sarif. It has no Go API.
package action
