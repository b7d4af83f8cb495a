"""Account pages. Thin: forms validate, services write, templates show."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordChangeForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters

from accounts.forms import SignupForm
from accounts.services import account_create

# With several AUTHENTICATION_BACKENDS, login() must be told which one vouches for the
# user; a freshly created account is vouched for by the model backend.
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _safe_next(request: HttpRequest) -> str:
    """The `next` parameter if it points to this site, else the home page."""
    candidate = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return reverse("home")


@sensitive_post_parameters("password1", "password2")
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST) if request.method == "POST" else SignupForm()
    if form.is_bound and form.is_valid():
        try:
            user = account_create(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                email=form.cleaned_data.get("email", ""),
            )
        except ValidationError as exc:  # only on a race the form could not see
            form.add_error(None, exc.messages)
        else:
            login(request, user, backend=MODEL_BACKEND)
            messages.success(
                request, _("Welcome, %(username)s! Your account is ready.") % {"username": user}
            )
            return HttpResponseRedirect(_safe_next(request))
    return render(request, "registration/signup.html", {"form": form, "next": _safe_next(request)})


class LoginView(auth_views.LoginView):
    # django-axes counts failures through the authentication backend and answers a locked
    # username+address pair with registration/locked_out.html, before this view runs.
    template_name = "registration/login.html"
    redirect_authenticated_user = True


class PasswordChangeView(auth_views.PasswordChangeView):
    # Not Django's default template name: that one is also the admin's, and ours would
    # replace it there.
    template_name = "registration/password_change.html"

    def form_valid(self, form: PasswordChangeForm) -> HttpResponse:
        response = super().form_valid(form)
        messages.success(self.request, _("Your password has been changed."))
        return response

    def get_success_url(self) -> str:
        return reverse("profile", kwargs={"username": self.request.user.get_username()})


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    return render(
        request,
        "accounts/profile.html",
        {"player": player, "is_own_profile": request.user == player},
    )
