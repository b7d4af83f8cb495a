"""Account pages. Thin: forms validate, services write, templates show."""

from __future__ import annotations

from django.conf import settings
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
from accounts.limits import client_address, signup_allowed, signup_take
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
    # Said before the form is filled in, and counted again when an account is made.
    address = client_address(request)
    if not signup_allowed(address):
        return _signups_limited(request)
    form = SignupForm(request.POST) if request.method == "POST" else SignupForm()
    if form.is_bound and form.is_valid():
        if not signup_take(address):
            return _signups_limited(request)
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


def _signups_limited(request: HttpRequest) -> HttpResponse:
    context = {"limit": settings.SIGNUP_RATE_LIMIT_PER_HOUR}
    return render(request, "registration/signup_limited.html", context, status=429)


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
